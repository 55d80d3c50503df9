"""Words for the temporal generator: value pools, several sentence shapes per fact, chit-chat.

Pools are chosen so that no value contains another as whole words (no "York" and "New York"),
no value is an everyday word a template uses ("Split" would match "we split up"),
no person shares a name with a place, and no filler line states a fact: the answer key is
computed from the facts the generator *meant*, so a filler that read as "I live in ..." would
make the key wrong. Every fact type has several templates, so the extractor is measured on
sentence shapes it may not know, not on one shape it was tuned for.

Example::

    >>> MOVE[0].format(city="Porto")
    'I moved to Porto, still unpacking.'
"""

from __future__ import annotations

CITIES = """Porto Ghent Tallinn Aarhus Seville Bergen Lyon Graz Utrecht Bologna Cork Galway Leipzig Bilbao
Turku Kaunas Tartu Ljubljana Brno Gdansk Malmo Tampere Dresden Nantes Cadiz Ostend Lugano Salzburg Krakow Riga
Vilnius Zagreb Valencia Granada Toulouse Bruges Antwerp Rotterdam Hamburg Munich Verona Parma Lucerne Basel
Innsbruck Trieste Coimbra Faro Oslo Uppsala Odense Aalborg Plovdiv Sibiu Cluj Pecs Debrecen Szeged Ohrid Kotor
""".split()

COMPANIES = """Vantorix|Helmsworth Labs|Quillford Bank|Brightmoor Foods|Ostrander Logistics|Calloway Studios|
Pinecrest Health|Marlowe Analytics|Redfern Motors|Sablewood Press|Thornbury Energy|Wexley Robotics|
Ashcombe Insurance|Greyhaven Games|Lindqvist Design|Corvel Pharma|Dunmore Textiles|Everly Telecom|
Fairhollow Farms|Kestrel Airways|Larkspur Software|Northwind Traders|Oakhurst Clinic|Penrose Capital|
Ravensholt Media|Silverlake Biotech|Tidewater Marine|
Umberfield Retail|Brackenridge Law|Wrenfield Architects""".replace("\n", "").split("|")

TITLES = """pharmacist architect electrician librarian nurse paramedic carpenter translator journalist dentist
surgeon barista chef plumber accountant photographer physiotherapist economist illustrator mechanic pilot
teacher data scientist software engineer graphic designer social worker web developer""".replace("\n", " ")
TITLE_LIST = [
    "data scientist", "software engineer", "graphic designer", "social worker", "web developer",
    *[
        t
        for t in TITLES.split()
        if t
        not in {
            "data", "scientist", "software", "engineer", "graphic", "designer", "social", "worker", "web",
            "developer",
        }
    ],
]

PEOPLE = """Amara Bastian Celeste Dario Elif Farid Greta Hamid Ingrid Joaquin Kalani Leandro Marisol Nikolai
Odile Pavel Quentin Rosalind Soren Tamsin Ulrich Valeria Wendell Ximena Yusuf Zelda Anouk Boris Camille Dmitri
Esme Florian Gideon Hester Ivo Jovana Kasimir Linnea Matteo Noor""".split()

PARTNERS = """Adrian Beatrix Cosmo Delphine Emeric Fenella Gaspard Honora Ignatius Juniper Konrad Lavinia
Maximilian Nerys Orlando Petra Rafferty Saskia Thaddeus Una""".split()

PETS = """Biscuit Mochi Pixel Juniperberry Waffles Pepper Noodle Clementine Banjo Tofu Marble Pickles Ziggy
Olive Peanut Sprout Nacho Pumpkin Basil Domino""".split()
SPECIES = ["dog", "cat", "rabbit", "parrot", "hamster"]

FAVORITES = {
    "food": "ramen paella lasagne dumplings tacos risotto moussaka pierogi goulash shakshuka".split(),
    "band": [
        "Radiohead", "Fleetwood Mac", "Daft Punk", "Arctic Monkeys", "Bon Iver", "Massive Attack",
        "Portishead", "Khruangbin",
    ],
}
HOBBIES = [
    "pottery", "bouldering", "birdwatching", "woodworking", "kayaking", "calligraphy", "beekeeping",
    "origami",
]
TRIPS = ["Japan", "Peru", "Iceland", "Morocco", "Vietnam", "Chile", "Namibia", "Mongolia"]
VEHICLES = ["Vespa", "camper van", "motorbike", "hatchback"]
OUTSIDE_BOSSES = ["Ruth", "Gustavo", "Hana", "Ellery", "Moritz", "Oona"]

# Facts. {city} {company} {title} {name} {pet} {species} {cat} {value} {thing} {year} {place} {vehicle}
MOVE = [
    "I moved to {city}, still unpacking.", "We just relocated to {city} for good.",
    "Big news: I'm living in {city} now.", "I finally settled in {city}.",
    "Packed everything up and moved to {city}!", "My new place in {city} is tiny but cosy.",
]
CORRECTION = [
    "Actually, it's {city}, not {wrong}.",
    "Sorry, I meant {city}, not {wrong}.",
    "Oops, I meant {city}.",
]
LATE_HOME = ["Back in {year} I lived in {city}.", "In {year} I was living in {city}, believe it or not.",
             "Fun fact: I lived in {city} back in {year}."]
JOB = ["I started a new job at {company}.", "I work at {company} these days.", "I got a job with {company}!",
       "Today was my first day at {company}.", "I've just accepted a job at {company}."]
TITLE = ["I'm a {title} now.", "I work as a {title} these days.", "They promoted me, I'm a {title} now.",
         "I retrained, and now I work as a {title}."]
MANAGER = [
    "My manager is {name}.", "I report to {name} now.", "My new boss is {name}.", "{name} is my manager now.",
    "After the reshuffle I report to {name}.",
]
PET_GET = [
    "We adopted a {species} named {pet}.", "I got a {species} called {pet}.", "Meet {pet}, my new {species}!",
    "We brought home a little {species}, we named it {pet}.",
]
PET_LOST = ["Our {species} {pet} passed away last night.", "Sadly we lost our {species} {pet}.",
            "We had to rehome {pet}.", "My {species} {pet} died this week, I'm heartbroken."]
DATING = [
    "I started dating {name}.", "My girlfriend {name} says hi.",
    "I'm seeing someone, {name}, it's going well.", "My boyfriend {name} cooked dinner tonight.",
]
ENGAGED = ["{name} and I got engaged!", "I'm engaged to {name}!", "I proposed to {name} and she said yes!"]
MARRIED = [
    "{name} and I got married on Saturday.",
    "I married {name} this weekend!",
    "We tied the knot, {name} is my wife now!",
]
BREAKUP = ["I broke up with {name}.", "{name} and I split up."]
FAVORITE = ["My favorite {cat} is {value}.", "These days my favourite {cat} is {value}.",
            "Honestly, {value} is my favorite {cat} now."]
LIKES = ["I love {thing}.", "I'm really into {thing} lately.", "I've gotten really into {thing}."]
PLAN = ["We're planning a trip to {place} next spring.", "I booked a trip to {place}!"]
POSTPONE = ["Our trip to {place} is postponed to next year.", "We pushed back the {place} trip."]
CANCEL = ["We cancelled the trip to {place}.", "The {place} trip is called off."]
BUY = ["I bought a {vehicle}.", "I finally bought a {vehicle}!"]
SELL = ["I sold my {vehicle}.", "I got rid of the {vehicle}."]

FILLER = [
    "How was your week, {l}?", "Ha, that's hilarious.", "The weather has been so grey lately.",
    "Did you catch the game last night?", "Work has been hectic, honestly.", "That sounds like a lot of fun!",
    "Let's grab coffee soon.", "Sorry for the slow reply, busy day.", "Any big weekend ideas?",
    "Made pancakes this morning, they were perfect.", "Traffic was terrible today.",
    "We should catch up properly soon.", "That's great news, congrats!", "Haha, classic {l}.",
    "Ugh, Mondays.", "Did you see that documentary about octopuses?", "Wow, I had no idea.",
    "Fair enough, that makes sense.", "Tell me more!", "Same here, honestly.",
    "Oh no, that sounds stressful.", "I'm glad it worked out in the end.",
    "What are you reading at the moment?", "Ha, no way!", "It rained all day here.",
    "Can't wait to hear how it goes.", "Good luck with everything, {l}.", "That photo you sent was amazing.",
    "Totally agree with you on that.", "Long day, talk tomorrow?",
]

# Questions. {p} person, {when} a date phrase, {year} a year.
Q_CURRENT = {
    "lives_in": [
        "Where does {p} live now?",
        "What city is {p} living in these days?",
        "Where is {p} based at the moment?",
    ],
    "works_at": ["Where does {p} work now?", "Which company does {p} work for at the moment?"],
    "job_title": ["What is {p}'s job now?", "What does {p} do for a living these days?"],
    "reports_to": ["Who is {p}'s manager now?", "Who does {p} report to these days?"],
    "favorite:food": ["What is {p}'s favorite food?"],
    "favorite:band": ["What is {p}'s favourite band these days?"],
}
Q_PARTNER = {
    "dating": "Who is {p} dating?",
    "engaged": "Who is {p} engaged to?",
    "married": "Who is {p} married to?",
}
Q_AS_OF = {
    "lives_in": ["Where did {p} live {when}?", "Where was {p} living {when}?"],
    "works_at": ["Where did {p} work {when}?", "Which company was {p} working for {when}?"],
    "job_title": ["What was {p}'s job {when}?"],
    "reports_to": ["Who was {p}'s manager {when}?", "Who did {p} report to {when}?"],
}
Q_LATE = ["Where did {p} live in {year}?", "Which city was {p} living in back in {year}?"]
Q_HISTORY_COUNT = {
    "lives_in": "How many cities has {p} lived in?",
    "works_at": "How many companies has {p} worked for?",
}
Q_HISTORY_LIST = {
    "lives_in": "Which cities has {p} lived in?",
    "works_at": "Which companies has {p} worked at?",
}
Q_CHAIN2 = ["Where does {p}'s manager live?", "Which city does {p}'s boss live in?"]
Q_CHAIN3 = ["Where does {p}'s manager's manager live?"]
Q_CHAIN_PAST = ["Where did {p}'s manager live {when}?"]
Q_PETS_NOW = ["What pets does {p} have now?"]
Q_PETS_COUNT = ["How many pets does {p} have now?"]
