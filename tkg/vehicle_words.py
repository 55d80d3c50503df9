"""Words that name a vehicle: the makes a car is called by and the kinds people get around on.

Shared by the extractor (what someone bought or picked up) and the reader (what a question about
driving or getting around asks for); kept outside `tkg.extract` so asking imports no extractor.
"""

from __future__ import annotations

# a car is often named by its make alone ("sold the Volvo", "a second-hand Nissan Leaf")
CAR_MAKES = frozenset("""volvo ford toyota nissan honda volkswagen vw fiat renault peugeot citroen citroën bmw
    audi mercedes tesla kia hyundai skoda škoda mazda subaru vauxhall opel jeep porsche lexus
    suzuki mitsubishi dacia saab landrover land-rover jaguar cupra polestar byd""".split())
# what a vehicle is called when no make names it ("picked up the e-bike")
VEHICLE_NOUNS = frozenset(
    "car bike bicycle ebike e-bike scooter motorbike motorcycle moped van truck campervan".split()
)


def names_vehicle(obj: str) -> bool:
    """What one drives, rides or trades a car for: a vehicle word, a make ("the Volvo") or a model's
    name ("a Honda Odyssey"); never "back and forth" or "a day off"."""
    low = obj.lower()
    words = set(low.replace("-", " ").split()) | set(low.split())  # "e-bike" as said and split
    return bool(words & (VEHICLE_NOUNS | CAR_MAKES)) or obj[:1].isupper()
