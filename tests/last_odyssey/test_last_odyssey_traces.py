"""Last Odyssey traces: what a game master reads, word for word, for the bundled examples and a few cases.

Every applied rule leaves one step citing its clause (system brief, "The contract").
"""

from __future__ import annotations

from tests.conftest import EXAMPLES
from tests.last_odyssey.helpers import rolled, scenario
from tohit.engine.roll import roll
from tohit.engine.scenario import load

PAGE = "last-odyssey: Attacking and Defending"


def _lines(path: str, target: str) -> list[tuple[str, str]]:
    return [(s.text, s.clause) for s in roll(load(EXAMPLES / "last-odyssey" / path), 1).target(target).steps]


def test_last_odyssey_trace_of_the_page_example() -> None:
    """General Notes' example, second enemy: one step per rule, each citing its clause."""
    assert _lines("cleave-two-enemies.yaml", "Second enemy") == [
        ("hit die: d10 (5), one roll for every target of the ability", f"{PAGE}, introduction"),
        ("accuracy value: hit die 5 - Physical Accuracy 3 = 2", f"{PAGE}, Physical Attacks"),
        ("2 + Evasion 2 = 4: 7 or below, a hit", f"{PAGE}, Physical Attacks"),
        (
            "base damage: Physical Attack 2 - Physical Defense 3 + hit die 5 = 4",
            f"{PAGE}, Physical Attacks; {PAGE}, General Notes (minimum base damage 1)",
        ),
        ("x2 (physical attack on a target without a Shell)", f"{PAGE}, General Notes"),
        ("x1 (colorless)", "Elemental Types (docs/last-odyssey.md#silent-elemental-types)"),
        (
            "final damage: 4 x 2 = 8, rounded to nearest, halves up: 8",
            f"{PAGE}, General Notes (docs/last-odyssey.md#silent-damage)",
        ),
    ]
    assert [text for text, _ in _lines("cleave-two-enemies.yaml", "First enemy")][-1] == (
        "2 + Evasion 6 = 8: above 7, a miss"
    )


def test_last_odyssey_trace_of_a_shell_breaking() -> None:
    """Shells: the overflow step says what the break does to HP."""
    lines = _lines("fire-spell-on-cop.yaml", "Cop")
    assert [line for line in lines if line[0].startswith("Shell")] == [
        (
            "Shell 5 absorbs 5 and breaks: overflow 14 - 5 = 9, less than the remaining 10 HP: no HP lost",
            "Shells (overflow damage); docs/last-odyssey.md#silent-shell",
        )
    ]
    downs = rolled(scenario({"shell": 5, "hp": 10, "evasion": 0}, attacker={"physical_attack": 20}, die=3))
    assert [s.text for s in downs.targets[0].steps if s.name in ("shell", "hp")] == [
        "Shell 5 absorbs 5 and breaks: overflow 23 - 5 = 18, at least the remaining 10 HP: the target is downed",
        "HP 10 - 10 = 0: at 0 HP the target is downed",
    ]


def test_last_odyssey_trace_of_a_shell_holding() -> None:
    """Shells: damage below the Shell's points is absorbed, and no HP is lost."""
    steps = [s.text for s in rolled(scenario({"shell": 9, "hp": 10, "evasion": 0}, die=3)).targets[0].steps]
    assert steps[-1] == "Shell 9 absorbs all 5: 4 Shell left, no HP lost"
    assert not any("breaks" in s for s in steps)


def test_last_odyssey_trace_of_a_knock_out() -> None:
    """Knock out: declared before the roll, the damage as if the die showed 1, incapacitated not killed."""
    texts = [text for text, _ in _lines("knock-out.yaml", "Cop")]
    assert texts[3:] == [
        "knock-out declared before the roll: the hit used the real roll, the damage counts the die as 1",
        "base damage: Physical Attack 5 - Physical Defense 2 + 1 (knock-out) = 4",
        "x2 (physical attack on a target without a Shell)",
        "x1 (colorless)",
        "final damage: 4 x 2 = 8, rounded to nearest, halves up: 8",
        "HP 3 - 3 = 0: at 0 HP the target is downed",
        "Cop was knocked out: temporarily incapacitated instead of killed",
    ]


def test_last_odyssey_trace_of_statuses_and_the_tracker() -> None:
    """Blinded (Statuses) and the Bonus Tracker each leave a step citing their page."""
    data = scenario(
        {"evasion": 5, "statuses": ["petrified"]},
        attacker={"physical_accuracy": 7, "statuses": ["blinded"], "buffs": {"physical_accuracy": 1}},
        die=4,
    )
    steps = [(s.text, s.clause) for s in rolled(data).targets[0].steps]
    assert (
        "Physical Accuracy 7, Blinded: half rounded down 3, Bonus Tracker +1 = 4",
        f"{PAGE}, Physical Attacks; Statuses (Blinded; docs/last-odyssey.md#silent-statuses);"
        " Buffs and Debuffs (docs/last-odyssey.md#silent-buffs-and-debuffs)",
    ) in steps
    assert (
        "Evasion 5, Petrified: half rounded down 2",
        f"{PAGE}, Physical Attacks; Statuses (Petrified; docs/last-odyssey.md#silent-statuses)",
    ) in steps
    assert ("0 + Evasion 2 = 2: 7 or below, a hit", f"{PAGE}, Physical Attacks") in steps


HIT_DIE_1 = "hit die: d10 (1), one roll for every target of the ability"
DAMAGE_3 = [
    "base damage: Physical Attack 2 - Physical Defense 0 + hit die 1 = 3",
    "x2 (physical attack on a target without a Shell)",
    "x1 (colorless)",
    "final damage: 3 x 2 = 6, rounded to nearest, halves up: 6",
]
DAMAGE_8 = [
    "base damage: Physical Attack 2 - Physical Defense 0 + hit die 6 = 8",
    "x2 (physical attack on a target without a Shell)",
    "x1 (colorless)",
    "final damage: 8 x 2 = 16, rounded to nearest, halves up: 16",
]
HIT_DIE_6 = [
    "hit die: d10 (6), one roll for every target of the ability",
    "accuracy value: hit die 6 - Physical Accuracy 3 = 3",
]
CONFUSED = {"kind": "status", "type": "ranged", "status": "confused"}
CASES = {
    "a miss": (
        scenario({"evasion": 6, "hp": 5}, die=5),
        [
            "hit die: d10 (5), one roll for every target of the ability",
            "accuracy value: hit die 5 - Physical Accuracy 3 = 2",
            "2 + Evasion 6 = 8: above 7, a miss",
        ],
    ),
    "a natural 1 out of reach": (
        scenario({"evasion": 12, "hp": 5}, die=1),
        [
            HIT_DIE_1,
            "accuracy value: hit die 1 - Physical Accuracy 3 = -2",
            "-2 + Evasion 12 = 10: above 7, but a natural 1 still hits",
            *DAMAGE_3,
            "HP 5 - 6: HP never goes below 0, so 0: at 0 HP the target is downed",
        ],
    ),
    "a 1 in reach": (
        scenario({"evasion": 0, "hp": 50}, die=1),
        [
            HIT_DIE_1,
            "accuracy value: hit die 1 - Physical Accuracy 3 = -2",
            "-2 + Evasion 0 = -2: 7 or below, a hit",
            *DAMAGE_3,
            "HP 50 - 6 = 44",
        ],
    ),
    "more damage than HP": (
        scenario({"evasion": 0, "hp": 5}, die=6),
        [
            *HIT_DIE_6,
            "3 + Evasion 0 = 3: 7 or below, a hit",
            *DAMAGE_8,
            "HP 5 - 16: HP never goes below 0, so 0: at 0 HP the target is downed",
        ],
    ),
    "exactly the HP": (
        scenario({"evasion": 0, "hp": 16}, die=6),
        [*HIT_DIE_6, "3 + Evasion 0 = 3: 7 or below, a hit", *DAMAGE_8, "HP 16 - 16 = 0: at 0 HP the target is downed"],
    ),
    "a status out of reach": (
        scenario({"resistance": 9}, attack=CONFUSED, die=1),
        [
            HIT_DIE_1,
            "accuracy value: hit die 1 - Status Accuracy 3 = -2",
            "-2 + Resistance 9 = 7: above 5, a miss (out of reach: a status ability cannot land, not even on a 1)",
        ],
    ),
    "an immune target leaning in": (
        scenario({"resistance": 0, "lean_in": True, "element_multiplier": 0.25}, attack=CONFUSED, die=1),
        [
            HIT_DIE_1,
            "accuracy value: hit die 1 - Status Accuracy 3 = -2",
            "-2 + Resistance 0 = -2: element x0.25 (element multiplier): immune to confused",
            "T0 leans in, but is immune to confused",
        ],
    ),
}


def test_last_odyssey_traces_word_for_word() -> None:
    """One step per rule applied, and only those: a miss, natural 1s, HP at and below 0, statuses."""
    for name, (data, expected) in CASES.items():
        assert [s.text for s in rolled(data).targets[0].steps] == expected, name
