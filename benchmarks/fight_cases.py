"""The fights the fights bench runs (benchmarks/bench_fights.py), per game: a 1-v-1, a 4-v-4 and a 1-v-1 with 40
health each for `--exact`. Built with the fight API alone (`fight_from_dict`, `load_fight`), so that the bench's
comparison against another tree (`--against REF`, benchmarks/fight_ab.py) plays the very same fights on that tree's
engine."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tohit.core.fight.contract import LoadedFight
from tohit.engine.fight.load import fight_from_dict, load_fight

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "fights"


def _kaiser(name: str, skill: int) -> dict[str, Any]:
    return {
        "name": name,
        "attacker": {"offensive_skill": skill, "strength": 8, "weapon": {"damage": 5, "damage_type": "cut"}},
        "target": {"defensive_skill": 8, "armor": {"cut": 1}, "lp": 40},
        "attacks": [{"name": "sword", "attack": {"range": "hand_to_hand"}}],
    }


def kaiser_fights() -> tuple[LoadedFight, LoadedFight, LoadedFight]:
    duel = load_fight(EXAMPLES / "kaiser-duel.yaml")
    team = {
        "system": "kaiser",
        "sides": [
            {"name": "Red", "policy": "weakest", "combatants": [_kaiser(f"Red {i}", 10 + i % 2) for i in range(4)]},
            {"name": "Blue", "policy": "first", "combatants": [_kaiser(f"Blue {i}", 11 - i % 2) for i in range(4)]},
        ],
    }
    return duel, fight_from_dict(team, source="4v4"), duel


def _fullplate(name: str, thac0: int, damage: str, ac: int) -> dict[str, Any]:
    return {
        "name": name,
        "attacker": {"thac0": thac0, "damage_bonus": 1, "weapon": {"damage": damage}},
        "target": {"ac": ac, "hp": 40},
        "attacks": [{"name": "weapon"}],
    }


def fullplate_fights() -> tuple[LoadedFight, LoadedFight, LoadedFight]:
    duel = {
        "system": "fullplate",
        "sides": [
            {"name": "Knight", "combatants": [_fullplate("Knight", 15, "1d8", 3)]},
            {"name": "Ogre", "combatants": [_fullplate("Ogre", 13, "2d6", 6)]},
        ],
    }
    team = {
        "system": "fullplate",
        "sides": [
            {
                "name": "Company",
                "policy": "weakest",
                "combatants": [_fullplate(f"Knight {i}", 15 + i % 2, "1d8", 4) for i in range(4)],
            },
            {"name": "Orcs", "combatants": [_fullplate(f"Orc {i}", 16, "1d10", 6) for i in range(4)]},
        ],
    }
    one = fight_from_dict(duel, source="fullplate 1v1")
    return one, fight_from_dict(team, source="fullplate 4v4"), one


def _rtw(name: str, accuracy: int, evasion: int, hero: bool) -> dict[str, Any]:
    return {
        "name": name,
        "attacker": {
            "accuracy": accuracy,
            "combat": 3,
            "weapon": {"name": "sword", "attack_power": 6, "acc": 3, "damage_type": "sharp"},
        },
        "target": {"evasion": evasion, "defense": 2, "health": 40, "hearts": 10, "hero": hero},
        "attacks": [{"name": "Strike"}],
    }


def rtw_fights() -> tuple[LoadedFight, LoadedFight, LoadedFight]:
    duel = {
        "system": "rtw",
        "sides": [
            {"name": "Hero", "combatants": [_rtw("Link", 3, 13, True)]},
            {"name": "Moblin", "combatants": [_rtw("Moblin", 4, 11, False)]},
        ],
    }
    team = {
        "system": "rtw",
        "sides": [
            {"name": "Heroes", "policy": "weakest", "combatants": [_rtw(f"Hero {i}", 3, 13, True) for i in range(4)]},
            {"name": "Moblins", "combatants": [_rtw(f"Moblin {i}", 4, 11, False) for i in range(4)]},
        ],
    }
    one = fight_from_dict(duel, source="rtw 1v1")
    return one, fight_from_dict(team, source="rtw 4v4"), one


def _wsswnn(name: str, die: str, guard: int, club: bool) -> dict[str, Any]:
    weapon = {"name": "club", "guard_damage": 2, "blunted": True} if club else {"name": "dagger"}
    return {
        "name": name,
        "attacker": {"attack_die": die, "maneuver_die": "d6", "strength": 2, "weapon": weapon},
        "target": {"guard": guard, "agility": 1, "armor": 1, "life": 40, "awareness": 2},
        "attacks": [{"name": "strike"}],
    }


def wsswnn_fights() -> tuple[LoadedFight, LoadedFight, LoadedFight]:
    duel = {
        "system": "wsswnn",
        "sides": [
            {"name": "Wandu", "combatants": [_wsswnn("Wandu", "d8", 4, False)]},
            {"name": "Brute", "combatants": [_wsswnn("Brute", "d10", 6, True)]},
        ],
    }
    team = {
        "system": "wsswnn",
        "sides": [
            {
                "name": "Heroes",
                "policy": "weakest",
                "combatants": [_wsswnn(f"Hero {i}", "d8", 5, False) for i in range(4)],
            },
            {"name": "Brutes", "combatants": [_wsswnn(f"Brute {i}", "d10", 5, True) for i in range(4)]},
        ],
    }
    one = fight_from_dict(duel, source="wsswnn 1v1")
    return one, fight_from_dict(team, source="wsswnn 4v4"), one


def _last_odyssey(name: str, magic: bool, shell: int) -> dict[str, Any]:
    kind = "magical" if magic else "physical"
    return {
        "name": name,
        "attacker": {"physical_accuracy": 4, "physical_attack": 5, "magical_accuracy": 4, "magical_attack": 4},
        "target": {"hp": 40, "shell": shell, "evasion": 2, "physical_defense": 2, "magical_defense": 2},
        "attacks": [{"name": kind, "attack": {"kind": kind, "type": "ranged" if magic else "melee"}}],
    }


def last_odyssey_fights() -> tuple[LoadedFight, LoadedFight, LoadedFight]:
    duel = {
        "system": "last-odyssey",
        "sides": [
            {"name": "Fighter", "combatants": [_last_odyssey("Mariana", False, 10)]},
            {"name": "Mage", "combatants": [_last_odyssey("Mage", True, 8)]},
        ],
    }
    team = {
        "system": "last-odyssey",
        "sides": [
            {
                "name": "Party",
                "policy": "weakest",
                "combatants": [_last_odyssey(f"Hero {i}", i % 2 == 1, 10) for i in range(4)],
            },
            {"name": "Cops", "combatants": [_last_odyssey(f"Cop {i}", False, 5) for i in range(4)]},
        ],
    }
    one = fight_from_dict(duel, source="last-odyssey 1v1")
    return one, fight_from_dict(team, source="last-odyssey 4v4"), one


#: Per game: (1-v-1, 4-v-4, 1-v-1 with 40 health each for --exact).
CASES: dict[str, Callable[[], tuple[LoadedFight, LoadedFight, LoadedFight]]] = {
    "kaiser": kaiser_fights,
    "fullplate": fullplate_fights,
    "rtw": rtw_fights,
    "wsswnn": wsswnn_fights,
    "last-odyssey": last_odyssey_fights,
}
