"""Words that name a vehicle: the makes a car is called by and the kinds people get around on.

Shared by the extractor (what someone bought or picked up) and the reader (what a question about
driving or getting around asks for); kept outside `tkg.extract` so asking imports no extractor.
"""

from __future__ import annotations

# a car is often named by its make alone ("sold the Volvo", "a second-hand Nissan Leaf")
CAR_MAKES = frozenset("""volvo ford toyota nissan honda volkswagen vw fiat renault peugeot citroen citroën bmw
    audi mercedes tesla kia hyundai skoda škoda mazda subaru vauxhall opel jeep porsche lexus
    suzuki mitsubishi dacia saab landrover land-rover jaguar cupra polestar byd""".split())
# or by its model alone ("the Corsa and I sat on the A4 all week"): best-selling models of the UK,
# Europe, the US and Australia whose names English has no other use for (not "Ibiza", "Tahoe": places)
CAR_MODELS = frozenset("""corsa astra yaris camry prius qashqai micra octavia fabia kuga sportage hilux
    mondeo zafira navara pajero impreza ioniq kona niro picanto megane captur kadjar sandero aygo auris
    avensis tiguan passat touran jetta arona ateca berlingo punto kodiaq karoq kamiq tipo mokka crossland
    grandland cr-v hr-v rav4 cx-5 mx-5 camaro f-150 silverado altima sentra elantra""".split())
# what a car is called by alone: its make or its model ("sold the Volvo", "the Corsa")
CAR_NAMES = CAR_MAKES | CAR_MODELS
# vans and lorries are named the same way ("we've got a Vivaro now", "the scania's going back")
VAN_MAKES = frozenset("daf scania iveco".split())
VAN_MODELS = frozenset("vivaro vivaro-e trafic movano ducato kangoo".split())
VAN_NAMES = VAN_MAKES | VAN_MODELS
# what any motor vehicle is called by alone ("the volvo", "the scania", "a Vivaro")
MOTOR_NAMES = CAR_NAMES | VAN_NAMES
# models named by an English word: a car's only when written with a capital ("the Fiesta failed its MOT")
CAR_MODEL_WORDS = frozenset("""corolla clio fiesta focus golf polo jazz leaf swift civic accord panda juke
    insignia odyssey beetle mustang corvette wrangler highlander pathfinder rogue bronco equinox outlander
    ranger""".split())
VAN_MODEL_WORDS = frozenset("transit sprinter crafter".split())
# what a vehicle is called when no make names it ("picked up the e-bike")
VEHICLE_NOUNS = frozenset(
    "car bike bicycle ebike e-bike scooter motorbike motorcycle moped van truck lorry campervan".split()
)


def names_vehicle(obj: str) -> bool:
    """What one drives, rides or trades a car for: a vehicle word, a make ("the Volvo") or a model's
    name ("a Honda Odyssey"); never "back and forth" or "a day off"."""
    low = obj.lower()
    words = set(low.replace("-", " ").split()) | set(low.split())  # "e-bike" as said and split
    capitalised = {w.lower() for w in obj.split() if w[:1].isupper()}  # "a little Fiesta", not "in focus"
    return bool(words & (VEHICLE_NOUNS | MOTOR_NAMES)
                or capitalised & (CAR_MODEL_WORDS | VAN_MODEL_WORDS)) or obj[:1].isupper()
