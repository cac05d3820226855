"""Every Star Trek: Missions card, scored by the engine against hands built from an independent
reading of the card's scoring text on the printed card list and the
rulings STM-R1..R9. Each case names the hand, the card under test and its expected points, with
the arithmetic in the comment. Scoring does not require a legal seven-card hand, so the hands
are as small as the rule allows."""

import itertools

import pytest

from games.star_trek_missions.choices import ChoiceError
from tests.engines.star_trek_missions_catalog import catalog, points, score

# Short names for the cards used most often.
KEHLEYR = "Ambassador K'Ehleyr"
SAREK = "Ambassador Sarek"
BATLETH = "Bat'leth"
BRIDGE = "Bridge"
PICARD = "Captain Jean-Luc Picard"
GOWRON = "Chancellor Gowron"
MADDOX = "Commander Bruce Maddox"
KURN = "Commander Kurn"
SELA = "Commander Sela"
TOMALAK = "Commander Tomalak"
RIKER = "Commander William Riker"
COMPUTER = "Computer"
TROI = "Counselor Deanna Troi"
CRYSTAL = "Crystal Entity"
BOK = "Daimon Bok"
TOG = "Daimon Tog"
BEVERLY = "Doctor Beverly Crusher"
ENGINE_ROOM = "Engine Room"
WESLEY = "Ensign Wesley Crusher"
PHASER = "Hand Phaser"
HOLO1 = "Holodeck 1"
HOLO2 = "Holodeck 2"
MORIARTY = "James Moriarty"
LEAH = "Leah Brahms"
DATA = "Lieutenant Commander Data"
GEORDI = "Lieutenant Geordi La Forge"
WORF = "Lieutenant Worf"
LORE = "Lore"
LURSA = "Lursa and B'Etor"
LWAXANA = "Lwaxana Troi"
MINUET = "Minuet"
PHOTON = "Photon Torpedoes"
QUARTERS = "Quarters"
SHIELDS = "Shields"
SICKBAY = "Sickbay"
SOVAK = "Sovak"
SPOCK = "Spock"
STONE = "Stone of Gol"
TEN_FORWARD = "Ten-Forward"
TRAVELER = "The Traveler"
THOUGHT_MAKER = "Thought Maker"
SORAN = "Tolian Soran"
TOX = "Tox Uthat"
TRACTOR = "Tractor Beam"
TRANSPORTER = "Transporter"
TRICORDER = "Tricorder"
TURBOLIFT = "Turbolift"
SHIP = "Unidentified Ship"
VASH = "Vash"
NAKAMURA = "Vice Admiral Nakamura"

AWAY_TEAM = "Away Team"
BORG = "Borg Cube"
VIRUS = "Computer Virus"
CONFLICTING = "Conflicting Orders"
CONFERENCE = "Diplomatic Conference"
DISTRESS = "Distress Call"
MACHINES = "Do Machines Have Rights?"
ENEMIES = "Enemies to Friends"
HAYWIRE = "Enterprise Goes Haywire"
DILEMMA = "Ethical Dilemma"
SIEGE = "Federation Under Siege"
IMMINENT = "Imminent Destruction"
INTRUDER = "Intruder Alert"
CIVIL_WAR = "Klingon Civil War"
LANGUAGE = "Language Barrier"
PERSONNEL_ISSUES = "Personnel Issues"
PLAGUE = "Mysterious Plague"
Q = "Meddlesome Q"
ROMANCE = "Blossoming Romance"
PUZZLE = "Scientific Puzzle"
CONFRONTATION = "Space Confrontation"
PROFIT = "The Lure of Profit"
TIME = "Time Distortion"
TRAPPED = "Trapped on the Holodeck"

NO_BLANK = {BORG: {"blank": []}}
NO_CHANGE = {THOUGHT_MAKER: {}}


def ship(type_, lifeform, affiliation, specialty):
    return {
        SHIP: {
            "type": type_,
            "lifeform": lifeform,
            "affiliation": affiliation,
            "specialty": specialty,
        }
    }


def case(card, hand, expected, choices=None, id=None, marks=()):
    """`card` scores `expected` in a hand of `card` plus `hand`."""
    return pytest.param(card, [card, *hand], expected, choices, id=id, marks=marks)


CASES = [
    # G01 Ambassador K'Ehleyr: 10 with Lieutenant Worf.
    case(KEHLEYR, [WORF], 10, id="kehleyr-with-worf"),
    case(KEHLEYR, [KURN, GOWRON], 0, id="kehleyr-other-klingons-0"),
    # G02 Ambassador Sarek: 5 for each non-Federation Captain.
    case(SAREK, [GOWRON, SELA], 10, id="sarek-two-non-fed-captains"),  # 5 + 5
    case(SAREK, [PICARD, NAKAMURA], 0, id="sarek-fed-captains-0"),
    case(SAREK, [CRYSTAL, LORE], 0, id="sarek-non-fed-non-captains-0"),
    # G03 Bat'leth: 6 with >=1 Klingon or Klingon Empire, or 16 with two or more.
    case(BATLETH, [], 0, id="batleth-none"),
    case(BATLETH, [WORF], 6, id="batleth-one-klingon"),
    # Gowron is Klingon AND Klingon Empire: still one card, so 6, not 16.
    case(BATLETH, [GOWRON], 6, id="batleth-one-card-both-criteria"),
    case(BATLETH, [GOWRON, WORF], 16, id="batleth-two"),
    case(BATLETH, [GOWRON, WORF, KURN, KEHLEYR], 16, id="batleth-four-still-16"),
    case(BATLETH, [SELA, SPOCK], 0, id="batleth-no-klingon-0"),
    # G04 Bridge: 3 for each Federation Personnel and (Federation) System.
    case(BRIDGE, [WORF, KEHLEYR, PHOTON], 9, id="bridge-rulebook"),  # 3 + 3 + 3
    case(BRIDGE, [PICARD, SAREK, TURBOLIFT], 0, id="bridge-captain-civilian-location-0"),
    case(BRIDGE, [TRANSPORTER, COMPUTER], 6, id="bridge-systems"),  # 3 + 3
    case(BRIDGE, [DATA], 3, id="bridge-data-one-bonus"),
    case(
        BRIDGE,
        [SHIP],
        0,
        ship("personnel", "human", "hostile", "command"),
        id="bridge-non-fed-personnel-0",
    ),
    case(
        BRIDGE,
        [SHIP],
        3,
        ship("personnel", "human", "federation", "command"),
        id="bridge-fed-personnel-ship",
    ),
    # G05 Picard: 5 with Bridge, plus 3 for each other Location.
    case(PICARD, [], 0, id="picard-none"),
    case(PICARD, [BRIDGE], 5, id="picard-bridge"),
    case(PICARD, [BRIDGE, ENGINE_ROOM, TURBOLIFT], 11, id="picard-bridge-and-two"),  # 5+3+3
    case(PICARD, [ENGINE_ROOM], 3, id="picard-location-without-bridge"),
    case(PICARD, [TRANSPORTER, COMPUTER], 3, id="picard-transporter-is-location"),
    # G06 Gowron: 5 for each other Klingon or Klingon Empire.
    case(GOWRON, [], 0, id="gowron-not-himself"),
    case(GOWRON, [KURN], 5, id="gowron-kurn-one-bonus"),  # Klingon + KE, one card
    case(GOWRON, [KURN, LURSA, WORF, KEHLEYR], 20, id="gowron-four"),  # 4 x 5
    case(GOWRON, [SELA, TOMALAK, RIKER], 0, id="gowron-no-klingon-0"),
    # G07 Maddox: 5 for each Android and Hologram.
    case(MADDOX, [DATA, LORE], 10, id="maddox-androids"),
    case(MADDOX, [MORIARTY, COMPUTER], 5, id="maddox-moriarty-standing"),
    case(MADDOX, [MORIARTY], 0, id="maddox-moriarty-blanked-0"),
    case(MADDOX, [MINUET, HOLO2], 5, id="maddox-minuet"),
    case(MADDOX, [LEAH], 0, id="maddox-leah-human-0"),
    case(MADDOX, [LEAH, HOLO1], 5, id="maddox-leah-hologram"),
    case(MADDOX, [LEAH, COMPUTER, DATA], 10, id="maddox-leah-computer-and-data"),
    # G08 Kurn: 10 with Lieutenant Worf.
    case(KURN, [WORF], 10, id="kurn-worf"),
    case(KURN, [GOWRON, KEHLEYR], 0, id="kurn-no-worf-0"),
    # G09 Sela: 4 for each Hostile and Klingon Empire.
    case(SELA, [CRYSTAL, GOWRON], 8, id="sela-hostile-and-ke"),
    case(SELA, [KURN, LURSA, LORE, SORAN], 16, id="sela-four"),
    case(SELA, [WORF, TOMALAK, BOK], 0, id="sela-klingon-not-ke-0"),
    case(SELA, [MORIARTY], 0, id="sela-blanked-moriarty-0"),
    case(SELA, [MORIARTY, COMPUTER], 4, id="sela-moriarty-standing"),
    # G10 Tomalak: 13 with >=3 Federation cards having >=3 different Specialties among them
    # (exact: one Specialty per card, STM-R2).
    case(TOMALAK, [RIKER, TROI, BEVERLY], 13, id="tomalak-three-specialties"),
    case(TOMALAK, [RIKER, TROI], 0, id="tomalak-two-fed-cards-0"),
    # Riker and Nakamura are only Command; Data adds one: 2 distinct.
    case(TOMALAK, [RIKER, NAKAMURA, DATA], 0, id="tomalak-data-one-value-0"),
    # three Federation cards, but only Data has Specialties: 1 distinct.
    case(TOMALAK, [DATA, HOLO1, QUARTERS], 0, id="tomalak-one-card-four-values-0"),
    case(TOMALAK, [DATA, WORF, RIKER], 13, id="tomalak-data-worf-riker"),
    case(TOMALAK, [RIKER, TROI, SOVAK, GOWRON], 0, id="tomalak-non-fed-dont-count-0"),
    # G11 Riker: 7 for each of Transporter, Troi, Away Team.
    case(RIKER, [TRANSPORTER, TROI, AWAY_TEAM], 21, id="riker-all-three"),
    case(RIKER, [TROI], 7, id="riker-troi"),
    case(RIKER, [TURBOLIFT, LWAXANA], 0, id="riker-none-0"),
    # G12 Computer: 6 for each Cosmic.
    case(COMPUTER, [CRYSTAL, TRAVELER, TOX, SORAN], 24, id="computer-four-cosmic"),
    case(COMPUTER, [WORF, SPOCK], 0, id="computer-no-cosmic-0"),
    # G13 Troi: 5 for each different lifeform (not counting herself).
    case(TROI, [], 0, id="troi-not-herself"),
    case(TROI, [LWAXANA], 5, id="troi-lwaxana"),
    case(TROI, [KEHLEYR], 5, id="troi-one-card-two-lifeforms"),
    case(TROI, [WORF, KEHLEYR], 10, id="troi-klingon-human-assigned"),  # Worf klingon, K human
    case(TROI, [BEVERLY, RIKER, PICARD], 5, id="troi-all-human"),
    case(TROI, [BRIDGE, COMPUTER], 0, id="troi-no-lifeform-0"),
    # klingon, android, romulan, vulcan, ferengi (Gowron repeats klingon): 5 x 5
    case(TROI, [WORF, GOWRON, DATA, SELA, SPOCK, BOK], 25, id="troi-five-lifeforms"),
    # G14 Crystal Entity: 6 for each Combat.
    case(CRYSTAL, [BRIDGE, WORF, PHOTON], 18, id="crystal-three-combat"),
    case(CRYSTAL, [BATLETH, KEHLEYR], 0, id="crystal-weapon-security-0"),
    # G15 Bok: 8 for each of Picard and Thought Maker.
    case(BOK, [PICARD, THOUGHT_MAKER], 16, NO_CHANGE, id="bok-both"),
    case(BOK, [PICARD], 8, id="bok-picard"),
    case(BOK, [TOG, NAKAMURA], 0, id="bok-none-0"),
    # G16 Tog: 8 for each Betazoid.
    case(TOG, [TROI, LWAXANA], 16, id="tog-two-betazoids"),
    case(TOG, [SPOCK, RIKER], 0, id="tog-none-0"),
    # G17 Beverly: 8 for each of Sickbay and Wesley.
    case(BEVERLY, [SICKBAY, WESLEY], 16, id="beverly-both"),
    case(BEVERLY, [SICKBAY], 8, id="beverly-sickbay"),
    case(BEVERLY, [TRICORDER, TRAVELER], 0, id="beverly-none-0"),
    # G18 Engine Room: 6 for each other Engineer.
    case(ENGINE_ROOM, [], 0, id="engine-room-not-itself"),
    case(ENGINE_ROOM, [MADDOX, GEORDI, TRAVELER, DATA], 24, id="engine-room-four"),
    case(ENGINE_ROOM, [LEAH], 6, id="engine-room-leah"),
    case(ENGINE_ROOM, [WORF, COMPUTER], 0, id="engine-room-none-0"),
    # G19 Wesley: scores what one System or other Engineer scores (the best, unless fixed).
    case(WESLEY, [ENGINE_ROOM], 6, id="wesley-copies-engine-room"),  # ER: 6 for Wesley
    # ER: Wesley, Geordi = 12; Geordi: ER = 4. Best is 12.
    case(WESLEY, [ENGINE_ROOM, GEORDI], 12, id="wesley-best-of-two"),
    case(WESLEY, [ENGINE_ROOM, GEORDI], 4, {WESLEY: {"copies": GEORDI}}, id="wesley-fixed"),
    case(WESLEY, [COMPUTER, TOX], 6, id="wesley-copies-system"),  # Computer: Tox cosmic 6
    case(WESLEY, [BEVERLY, SICKBAY, RIKER], 0, id="wesley-nothing-to-copy-0"),
    # G20 Hand Phaser: 9 with >=1 Federation Security or (Federation) Command.
    case(PHASER, [WORF], 9, id="phaser-fed-security"),
    case(PHASER, [RIKER], 9, id="phaser-fed-command"),
    case(PHASER, [WORF, RIKER, DATA], 9, id="phaser-with-once"),
    case(PHASER, [GOWRON, BEVERLY], 0, id="phaser-non-fed-command-0"),
    case(
        PHASER,
        [SHIP],
        0,
        ship("personnel", "human", "hostile", "security"),
        id="phaser-non-fed-security-0",
    ),
    # G21/G22 Holodeck: 8 for each Hologram, 2 for each Federation Personnel and Captain.
    *[
        x
        for holo in (HOLO1, HOLO2)
        for x in (
            case(holo, [MORIARTY, RIKER, PICARD], 12, id=f"{holo}-hologram-personnel-captain"),
            case(holo, [LEAH], 8, id=f"{holo}-leah-hologram-one-bonus"),  # not 8 + 2
            case(holo, [MINUET], 8, id=f"{holo}-minuet"),
            case(holo, [GOWRON, SAREK, TURBOLIFT], 0, id=f"{holo}-non-fed-captain-civilian-0"),
        )
    ],
    case(HOLO1, [HOLO2], 0, id="holodeck-other-holodeck-0"),
    # G23 Moriarty: BLANKED unless Holodeck 1/2 or Computer; 8 for each Science and Engineer.
    case(MORIARTY, [COMPUTER, DATA, MADDOX], 24, id="moriarty-computer"),  # 3 x 8; Data once
    case(MORIARTY, [HOLO1, SPOCK, TRAVELER], 16, id="moriarty-holodeck1"),
    case(MORIARTY, [HOLO2, GEORDI], 8, id="moriarty-holodeck2"),
    case(MORIARTY, [DATA, MADDOX, SPOCK], 0, id="moriarty-blanked-0"),
    # G24 Leah Brahms: 9 for each of Geordi and Engine Room; +5 with Holodeck/Computer.
    case(LEAH, [], 0, id="leah-none"),
    case(LEAH, [GEORDI, ENGINE_ROOM], 18, id="leah-geordi-engine-room"),
    case(LEAH, [GEORDI, ENGINE_ROOM, COMPUTER], 23, id="leah-plus-computer"),  # 9+9+5
    case(LEAH, [HOLO2], 5, id="leah-holodeck2"),
    case(LEAH, [HOLO1, HOLO2, COMPUTER], 5, id="leah-plus-5-once"),
    # G25 Data: no scoring text (provisional: 0).
    case(DATA, [LORE, MADDOX, RIKER, SPOCK], 0, id="data-0"),
    # G26 Geordi: 4 for each System and for Engine Room.
    case(GEORDI, [COMPUTER, TRANSPORTER, ENGINE_ROOM], 12, id="geordi-systems-and-er"),
    case(GEORDI, [ENGINE_ROOM], 4, id="geordi-er"),
    case(GEORDI, [PHOTON, SHIELDS], 8, id="geordi-systems"),
    case(GEORDI, [BRIDGE, MADDOX], 0, id="geordi-none-0"),
    # G27 Worf: 4 for each Weapon and other Combat.
    case(WORF, [PHOTON, BRIDGE], 8, id="worf-rulebook"),
    case(WORF, [BATLETH, STONE, PHASER], 12, id="worf-weapons"),
    case(WORF, [], 0, id="worf-not-himself"),
    case(WORF, [CRYSTAL, KEHLEYR], 0, id="worf-none-0"),
    case(WORF, [SHIP], 4, ship("captain", "human", "hostile", "combat"), id="worf-ship-combat"),
    # G28 Lore: 8 for each of Data, Crystal Entity, Borg Cube.
    case(LORE, [DATA, CRYSTAL, BORG], 24, NO_BLANK, id="lore-all-three"),
    case(LORE, [DATA], 8, id="lore-data"),
    case(LORE, [MADDOX, MINUET, HOLO1], 0, id="lore-none-0"),
    # G29 Lursa and B'Etor: 7 for each Romulan or Romulan Star Empire.
    case(LURSA, [SELA, TOMALAK], 14, id="lursa-two"),
    case(LURSA, [GOWRON, KURN], 0, id="lursa-none-0"),
    case(
        LURSA,
        [SHIP],
        7,
        ship("civilian", "romulan", "romulan-star-empire", "science"),
        id="lursa-ship-both-one-bonus",
    ),
    case(
        LURSA,
        [SHIP],
        7,
        ship("civilian", "human", "romulan-star-empire", "science"),
        id="lursa-ship-rse",
    ),
    # G30 Lwaxana: 9 for each of Troi and Picard.
    case(LWAXANA, [TROI, PICARD], 18, id="lwaxana-both"),
    case(LWAXANA, [TOG, NAKAMURA], 0, id="lwaxana-none-0"),
    # G31 Minuet: BLANKED unless Holodeck/Computer; 10 with any Command, or 20 with Riker.
    case(MINUET, [HOLO1, RIKER], 20, id="minuet-riker"),
    case(MINUET, [HOLO1, RIKER, PICARD], 20, id="minuet-riker-not-30"),
    case(MINUET, [COMPUTER, PICARD], 10, id="minuet-command"),
    case(MINUET, [HOLO2, GOWRON], 10, id="minuet-non-fed-command"),
    case(MINUET, [HOLO1], 0, id="minuet-no-command-0"),
    case(MINUET, [RIKER, PICARD], 0, id="minuet-blanked-0"),
    # G32/G34/G44: 6 with >=1 non-Federation Captain, and 2 for each other Combat.
    *[
        x
        for system in (PHOTON, SHIELDS, TRACTOR)
        for x in (
            case(system, [GOWRON], 6, id=f"{system}-non-fed-captain"),
            case(system, [GOWRON, SELA], 6, id=f"{system}-with-once"),
            case(system, [PICARD, NAKAMURA], 0, id=f"{system}-fed-captain-0"),
            case(system, [CRYSTAL, LORE], 0, id=f"{system}-non-fed-non-captain-0"),
            case(system, [BRIDGE, WORF], 4, id=f"{system}-two-combat"),
            case(system, [GOWRON, BRIDGE], 8, id=f"{system}-both"),
            # a non-Federation Combat Captain satisfies only one criterion: 6
            case(
                system,
                [SHIP],
                6,
                ship("captain", "human", "hostile", "combat"),
                id=f"{system}-ship-one-bonus",
            ),
            case(
                system,
                [SHIP, GOWRON],
                8,
                ship("captain", "human", "hostile", "combat"),
                id=f"{system}-ship-and-gowron",
            ),
        )
    ],
    case(PHOTON, [SHIELDS, TRACTOR], 4, id="photon-other-systems-combat"),
    # G33 Quarters: 12 with >=2 Federation Personnel, Civilian, or Captain.
    case(QUARTERS, [RIKER, SAREK], 12, id="quarters-personnel-civilian"),
    case(QUARTERS, [PICARD, NAKAMURA], 12, id="quarters-two-captains"),
    case(QUARTERS, [RIKER, SAREK, PICARD], 12, id="quarters-with-once"),
    case(QUARTERS, [RIKER], 0, id="quarters-one-0"),
    case(QUARTERS, [RIKER, GOWRON], 0, id="quarters-non-fed-captain-0"),
    case(QUARTERS, [RIKER, VASH], 0, id="quarters-civilian-no-affiliation-0"),
    case(QUARTERS, [RIKER, TEN_FORWARD], 0, id="quarters-location-0"),
    # G35 Sickbay: 20 with a Personnel, a non-Federation, and a Combat or Weapon (STM-R1:
    # three different cards).
    case(SICKBAY, [RIKER, GOWRON, BATLETH], 20, id="sickbay-all-three"),
    case(SICKBAY, [RIKER, CRYSTAL, STONE], 20, id="sickbay-all-three-b"),
    case(SICKBAY, [WORF, GOWRON, BRIDGE], 20, id="sickbay-worf-personnel"),
    case(SICKBAY, [RIKER, GOWRON], 0, id="sickbay-no-combat-0"),
    case(SICKBAY, [WORF, GOWRON], 0, id="sickbay-worf-only-one-criterion-0"),
    case(SICKBAY, [BRIDGE, GOWRON, BATLETH], 0, id="sickbay-no-personnel-0"),
    # Vash and Bat'leth have no affiliation: neither Federation nor non-Federation
    case(SICKBAY, [RIKER, VASH, BATLETH], 0, id="sickbay-no-affiliation-is-not-non-fed-0"),
    # G36 Sovak: 8 for each Artifact.
    case(SOVAK, [STONE, THOUGHT_MAKER, TOX], 24, NO_CHANGE, id="sovak-three"),
    case(SOVAK, [VASH, BATLETH], 0, id="sovak-none-0"),
    # G37 Spock: 6 for each Romulan, Sarek, and Data.
    case(SPOCK, [SELA, TOMALAK, SAREK, DATA], 24, id="spock-all"),
    case(SPOCK, [GOWRON, LORE], 0, id="spock-none-0"),
    # G38 Stone of Gol: 11 with >=1 Vulcan or Betazoid.
    case(STONE, [SPOCK], 11, id="stone-vulcan"),
    case(STONE, [TROI], 11, id="stone-betazoid"),
    case(STONE, [SPOCK, TROI, SAREK], 11, id="stone-with-once"),
    case(STONE, [WORF, RIKER], 0, id="stone-none-0"),
    # G39 Ten-Forward: 4 for each Federation Personnel and (Federation) Civilian.
    case(TEN_FORWARD, [RIKER, SAREK, LWAXANA], 12, id="ten-forward-three"),
    case(TEN_FORWARD, [VASH, LORE, PICARD, BRIDGE], 0, id="ten-forward-none-0"),
    # G40 The Traveler: 10 for each of Wesley and Engine Room.
    case(TRAVELER, [WESLEY, ENGINE_ROOM], 20, id="traveler-both"),
    case(TRAVELER, [ENGINE_ROOM], 10, id="traveler-er"),
    case(TRAVELER, [GEORDI, BEVERLY], 0, id="traveler-none-0"),
    # G41 Thought Maker: may change the affiliation of one other card with a lifeform; +5 if so.
    case(
        THOUGHT_MAKER,
        [RIKER],
        5,
        {THOUGHT_MAKER: {"target": RIKER, "affiliation": "hostile"}},
        id="thought-maker-changes",
    ),
    case(THOUGHT_MAKER, [RIKER], 0, NO_CHANGE, id="thought-maker-no-change-0"),
    # unfixed: the best is to change Riker (to anything but Federation): 5
    case(THOUGHT_MAKER, [RIKER], 5, id="thought-maker-best-changes"),
    case(
        THOUGHT_MAKER,
        [VASH],
        5,
        {THOUGHT_MAKER: {"target": VASH, "affiliation": "federation"}},
        id="thought-maker-gives-vash-affiliation",
    ),
    case(THOUGHT_MAKER, [BRIDGE, COMPUTER], 0, id="thought-maker-no-lifeform-target-0"),
    # G42 Tolian Soran: 12 for each of Time Distortion and Borg Cube.
    case(SORAN, [TIME, BORG], 24, NO_BLANK, id="soran-both"),
    case(SORAN, [TIME], 12, id="soran-time"),
    case(SORAN, [TEN_FORWARD, TOX], 0, id="soran-none-0"),
    # G43 Tox Uthat: 6 for each Archaeologist and other Cosmic.
    case(TOX, [PICARD, SOVAK, CRYSTAL, TRAVELER], 24, id="tox-four"),
    case(TOX, [], 0, id="tox-not-itself"),
    case(TOX, [VASH], 6, id="tox-vash"),
    case(TOX, [STONE, COMPUTER], 0, id="tox-none-0"),
    # G45 Transporter: 18 with >=3 Personnel with >=3 different Specialties among them.
    case(TRANSPORTER, [RIKER, TROI, BEVERLY], 18, id="transporter-three"),
    case(TRANSPORTER, [MADDOX, WESLEY, GEORDI], 0, id="transporter-all-engineers-0"),
    case(TRANSPORTER, [DATA, MADDOX, GEORDI], 0, id="transporter-data-one-value-0"),
    case(TRANSPORTER, [DATA, WORF, GEORDI], 18, id="transporter-data-worf-geordi"),
    case(TRANSPORTER, [RIKER, TROI, PICARD], 0, id="transporter-captain-not-personnel-0"),
    case(TRANSPORTER, [RIKER, TROI], 0, id="transporter-two-0"),
    # G46 Tricorder: 9 for each other Medical and Science.
    case(TRICORDER, [BEVERLY, SICKBAY, COMPUTER, SPOCK, DATA], 45, id="tricorder-five"),
    case(TRICORDER, [], 0, id="tricorder-not-itself"),
    case(TRICORDER, [WORF, RIKER], 0, id="tricorder-none-0"),
    # G47 Turbolift: 16 with at least two other Locations.
    case(TURBOLIFT, [BRIDGE, ENGINE_ROOM], 16, id="turbolift-two"),
    case(TURBOLIFT, [TRANSPORTER, QUARTERS, SICKBAY], 16, id="turbolift-three"),
    case(TURBOLIFT, [BRIDGE, COMPUTER], 0, id="turbolift-one-0"),
    # G48 Unidentified Ship: no scoring text of its own.
    case(
        SHIP,
        [GOWRON],
        0,
        ship("captain", "klingon", "klingon-empire", "command"),
        id="ship-scores-0",
    ),
    # G49 Vash: 7 for each other Archaeologist, each Artifact, and Meddlesome Q.
    case(VASH, [PICARD, SOVAK, TOX, Q], 28, id="vash-four"),
    case(VASH, [], 0, id="vash-not-herself"),
    case(VASH, [STONE], 7, id="vash-artifact"),
    case(VASH, [TIME, RIKER], 0, id="vash-none-0"),
    # G50 Nakamura: 7 for each other Federation Command.
    case(NAKAMURA, [PICARD, RIKER, DATA], 21, id="nakamura-three"),
    case(NAKAMURA, [], 0, id="nakamura-not-himself"),
    case(NAKAMURA, [GOWRON, SELA], 0, id="nakamura-non-fed-command-0"),
    # M01 Away Team: 5 for each Personnel with a different Specialty, and for each of
    # Transporter, Tricorder, Hand Phaser.
    case(AWAY_TEAM, [DATA], 5, id="away-team-data-one-card"),
    case(AWAY_TEAM, [MADDOX, GEORDI], 5, id="away-team-same-specialty"),
    case(AWAY_TEAM, [RIKER, TROI, BEVERLY], 15, id="away-team-three-specialties"),
    case(AWAY_TEAM, [DATA, RIKER, WORF], 15, id="away-team-data-assigned"),
    case(AWAY_TEAM, [TRANSPORTER, TRICORDER, PHASER], 15, id="away-team-named"),
    case(AWAY_TEAM, [PICARD, SPOCK], 0, id="away-team-no-personnel-0"),
    # M02 Borg Cube: 5 for each Captain and each Combat and Security.
    case(BORG, [PICARD, WORF, BRIDGE, RIKER], 15, NO_BLANK, id="borg-three"),
    case(BORG, [WORF], 5, NO_BLANK, id="borg-worf-one-bonus"),
    case(BORG, [KEHLEYR], 5, NO_BLANK, id="borg-security"),
    case(BORG, [SPOCK, TRICORDER], 0, NO_BLANK, id="borg-none-0"),
    # M03 Computer Virus: 7 for each System and each Hologram.
    case(VIRUS, [COMPUTER, TRANSPORTER, MORIARTY], 21, id="virus-three"),
    case(VIRUS, [MORIARTY, MINUET], 0, id="virus-blanked-holograms-0"),
    case(VIRUS, [LEAH, HOLO1], 7, id="virus-leah-hologram"),
    case(VIRUS, [LEAH], 0, id="virus-leah-human-0"),
    # M04 Conflicting Orders: 14 with >=2 Command cards with the same affiliation.
    case(CONFLICTING, [GOWRON, KURN], 14, id="conflicting-ke"),
    case(CONFLICTING, [PICARD, RIKER], 14, id="conflicting-federation"),
    case(CONFLICTING, [SELA, TOMALAK, GOWRON], 14, id="conflicting-rse"),
    case(CONFLICTING, [GOWRON, RIKER, SELA, BOK], 0, id="conflicting-all-different-0"),
    case(CONFLICTING, [BOK, SOVAK], 0, id="conflicting-same-aff-one-command-0"),
    # M05 Diplomatic Conference: 5 for each different affiliation among Captains and for each
    # Ambassador.
    case(CONFERENCE, [KEHLEYR, SELA, GOWRON, KURN], 15, id="conference-rulebook"),
    case(CONFERENCE, [PICARD, NAKAMURA], 5, id="conference-same-affiliation"),
    case(CONFERENCE, [SAREK, SPOCK, LWAXANA], 15, id="conference-ambassadors"),
    case(CONFERENCE, [RIKER, CRYSTAL], 0, id="conference-none-0"),
    # M06 Distress Call: 9 for each of Bridge, Tractor Beam, Transporter, and Medical.
    case(DISTRESS, [BRIDGE, TRACTOR, TRANSPORTER], 27, id="distress-named"),
    case(DISTRESS, [BRIDGE, TRACTOR, TRANSPORTER, SICKBAY], 36, id="distress-all"),
    # "for each ... Medical": each Medical card counts (ambiguous; engine reads it so)
    case(DISTRESS, [BEVERLY, TRICORDER], 18, id="distress-each-medical"),
    case(DISTRESS, [PHOTON, SHIELDS], 0, id="distress-none-0"),
    # M07 Do Machines Have Rights?: 9 for each Hologram or Android, and for each of Nakamura
    # and Maddox.
    case(MACHINES, [DATA, LORE, NAKAMURA, MADDOX], 36, id="machines-four"),
    case(MACHINES, [MORIARTY, COMPUTER], 9, id="machines-moriarty"),
    case(MACHINES, [LEAH, HOLO1], 9, id="machines-leah-hologram"),
    case(MACHINES, [MINUET, LEAH], 0, id="machines-minuet-blanked-leah-human-0"),
    # M08 Enemies to Friends: 12 with >=1 RSE/Ferengi Alliance/Hostile AND >=1 Betazoid/Ambassador.
    case(ENEMIES, [SELA, TROI], 12, id="enemies-rse-betazoid"),
    case(ENEMIES, [CRYSTAL, SAREK], 12, id="enemies-hostile-ambassador"),
    case(ENEMIES, [BOK, SPOCK], 12, id="enemies-ferengi-ambassador"),
    case(ENEMIES, [SELA, RIKER], 0, id="enemies-no-betazoid-0"),
    case(ENEMIES, [GOWRON, TROI], 0, id="enemies-ke-not-listed-0"),
    case(
        ENEMIES,
        [SHIP],
        0,
        ship("civilian", "betazoid", "hostile", "ambassador"),
        id="enemies-one-card-both-halves-0",
    ),
    # M09 Enterprise Goes Haywire: 5 for each Engineer and for each System and Location.
    case(HAYWIRE, [ENGINE_ROOM, TRANSPORTER, COMPUTER, GEORDI], 20, id="haywire-four"),
    case(HAYWIRE, [BRIDGE], 5, id="haywire-location"),
    case(HAYWIRE, [WORF, SPOCK], 0, id="haywire-none-0"),
    # M10 Ethical Dilemma: 15 with a Federation Command card AND two other cards with a
    # lifeform and different Specialties from each other.
    case(DILEMMA, [RIKER, TROI, BEVERLY], 15, id="dilemma-yes"),
    case(DILEMMA, [DATA, MADDOX, WORF], 15, id="dilemma-data-command"),
    case(DILEMMA, [RIKER, NAKAMURA, PICARD], 15, id="dilemma-command-and-archaeologist"),
    case(DILEMMA, [RIKER, VASH, SPOCK], 15, id="dilemma-no-affiliation-others-ok"),
    case(DILEMMA, [RIKER, MADDOX, GEORDI], 0, id="dilemma-same-specialty-0"),
    case(DILEMMA, [RIKER, TROI], 0, id="dilemma-one-other-0"),
    case(DILEMMA, [GOWRON, TROI, BEVERLY], 0, id="dilemma-non-fed-command-0"),
    case(DILEMMA, [RIKER, TROI, BRIDGE], 0, id="dilemma-no-lifeform-0"),
    case(DILEMMA, [RIKER, DATA], 0, id="dilemma-two-cards-0"),  # a card fills one role only
    # Lore has a lifeform but no Specialty, so no Specialty "different from" Troi's
    case(DILEMMA, [RIKER, LORE, TROI], 0, id="dilemma-other-without-specialty-0"),
    # M11 Federation Under Siege: 6 for each card with a non-Federation affiliation.
    case(SIEGE, [GOWRON, CRYSTAL, SOVAK], 18, id="siege-three"),
    case(SIEGE, [VASH, TRAVELER, BATLETH, RIKER], 0, id="siege-no-affiliation-0"),
    case(SIEGE, [THOUGHT_MAKER, RIKER], 6, NO_CHANGE, id="siege-thought-maker"),
    # Thought Maker makes Riker Hostile: 6 + 6
    case(
        SIEGE,
        [THOUGHT_MAKER, RIKER],
        12,
        {THOUGHT_MAKER: {"target": RIKER, "affiliation": "hostile"}},
        id="siege-changed-affiliation",
    ),
    # M12 Imminent Destruction: 8 for each Engineer.
    case(IMMINENT, [MADDOX, GEORDI, DATA, TRAVELER, ENGINE_ROOM], 40, id="imminent-five"),
    case(IMMINENT, [WORF], 0, id="imminent-none-0"),
    # M13 Intruder Alert: BLANKED unless a non-Federation card; 12 for each Security and Weapon.
    case(INTRUDER, [WORF, KEHLEYR, BATLETH, GOWRON], 36, id="intruder-three"),
    case(INTRUDER, [DATA, PHASER, LORE], 24, id="intruder-two"),
    case(INTRUDER, [WORF, BATLETH, VASH], 0, id="intruder-blanked-0"),
    case(INTRUDER, [WORF, THOUGHT_MAKER], 12, NO_CHANGE, id="intruder-non-fed-artifact"),
    # Moriarty is the only non-Federation card; standing only with a Holodeck/Computer.
    case(INTRUDER, [WORF, MORIARTY], 0, id="intruder-moriarty-blanked-0"),
    case(INTRUDER, [WORF, MORIARTY, COMPUTER], 12, id="intruder-moriarty-standing"),
    # M14 Klingon Civil War: 8 for each card with Klingon, Romulan, KE or RSE.
    case(CIVIL_WAR, [WORF, GOWRON, SELA, SPOCK], 24, id="civil-war-three"),
    case(CIVIL_WAR, [RIKER, BOK], 0, id="civil-war-none-0"),
    # M15 Language Barrier: 8 for each Betazoid and Vulcan and each of Computer and Tricorder.
    case(LANGUAGE, [TROI, LWAXANA, SPOCK, SAREK, COMPUTER, TRICORDER], 48, id="language-six"),
    case(LANGUAGE, [RIKER, BRIDGE], 0, id="language-none-0"),
    # M16 Personnel Issues: 14 with a Personnel AND a Counselor or Federation Captain.
    case(PERSONNEL_ISSUES, [RIKER, TROI], 14, id="issues-personnel-counselor"),
    case(PERSONNEL_ISSUES, [RIKER, PICARD], 14, id="issues-personnel-fed-captain"),
    case(PERSONNEL_ISSUES, [RIKER, TEN_FORWARD], 14, id="issues-counselor-location"),
    case(PERSONNEL_ISSUES, [TROI], 0, id="issues-troi-one-card-0"),
    case(PERSONNEL_ISSUES, [RIKER, GOWRON], 0, id="issues-non-fed-captain-0"),
    case(PERSONNEL_ISSUES, [PICARD, LWAXANA, TEN_FORWARD], 0, id="issues-no-personnel-0"),
    # M17 Mysterious Plague: 5 per Medical; chosen lifeform: 5 per card if Human, else 8.
    case(
        PLAGUE,
        [BEVERLY, SICKBAY, TRICORDER],
        15,
        {PLAGUE: {"lifeform": "vulcan"}},
        id="plague-medical",
    ),
    case(PLAGUE, [RIKER, PICARD], 10, {PLAGUE: {"lifeform": "human"}}, id="plague-human"),
    case(PLAGUE, [WORF, GOWRON], 16, {PLAGUE: {"lifeform": "klingon"}}, id="plague-klingon"),
    case(PLAGUE, [BEVERLY], 5, {PLAGUE: {"lifeform": "human"}}, id="plague-one-bonus"),
    case(PLAGUE, [WORF, GOWRON], 0, {PLAGUE: {"lifeform": "human"}}, id="plague-wrong-lifeform-0"),
    case(PLAGUE, [WORF, GOWRON, RIKER], 16, id="plague-best-choice"),  # klingon 16 > human 5
    # M18 Meddlesome Q: no scoring text.
    case(Q, [RIKER, VASH], 0, id="q-0"),
    # M19 Blossoming Romance: 8 with two Personnel/Civilians/Captains (any lifeform, or none:
    # STM-R11); 6 for each additional Counselor, Betazoid, and Quarters.
    case(ROMANCE, [RIKER, PICARD], 8, id="romance-pair"),
    case(ROMANCE, [RIKER], 0, id="romance-one-0"),
    # Ambiguous ("additional"): tested as the engine reads it, the 6s and the 8 are separate
    # bonuses, one per giving card: Troi and Lwaxana as two Betazoids (12) beat the pair (8).
    case(ROMANCE, [TROI, LWAXANA], 12, id="romance-two-betazoids-12"),
    case(ROMANCE, [TROI, LWAXANA, RIKER], 14, id="romance-one-additional-betazoid"),  # 8 + 6
    # Riker+Picard the pair; Troi (Counselor and Betazoid) 6 once; Quarters 6.
    case(ROMANCE, [RIKER, PICARD, TROI, QUARTERS], 20, id="romance-additional"),
    # STM-R11: "(any lifeform)" means the lifeform does not matter, so The Traveler (a Civilian
    # with no lifeform printed) is one of the two. (It read "must have a lifeform" before: 0.)
    case(ROMANCE, [RIKER, TRAVELER], 8, id="romance-traveler-counts-any-lifeform-8"),
    # The 6s do not need the 8 (Ten-Forward is a Counselor).
    case(ROMANCE, [QUARTERS, TEN_FORWARD], 12, id="romance-additional-without-pair"),
    # M20 Scientific Puzzle: 6 for each Artifact and each Cosmic and Science.
    case(PUZZLE, [TOX, STONE, TRAVELER, COMPUTER], 24, id="puzzle-four"),
    case(PUZZLE, [TOX], 6, id="puzzle-tox-one-bonus"),
    case(PUZZLE, [RIKER, BATLETH], 0, id="puzzle-none-0"),
    # M21 Space Confrontation: BLANKED unless a non-Federation Captain or Entity; 6 for each
    # other Command or Combat: other than the one card keeping it from being blanked (STM-R10).
    # Crystal Entity keeps it (and is neither): Riker, Bridge, Worf 6 each.
    case(CONFRONTATION, [CRYSTAL, RIKER, BRIDGE, WORF], 18, id="confrontation-entity"),
    # Gowron is the only card keeping it, so not "other": Riker alone, 6. (It read 12 before.)
    case(CONFRONTATION, [GOWRON, RIKER], 6, id="confrontation-gowron-keeps-it-not-other"),
    # Two non-Federation Captains: one keeps it, the other counts (the rulebook-era 12, not 18).
    case(CONFRONTATION, [BOK, TOG, NAKAMURA], 12, id="confrontation-one-daimon-keeps-it-12"),
    case(CONFRONTATION, [RIKER, BRIDGE, PICARD], 0, id="confrontation-blanked-0"),
    case(CONFRONTATION, [CRYSTAL, SPOCK], 0, id="confrontation-nothing-0"),
    # M22 The Lure of Profit: 7 for each Ferengi Alliance, each Artifact, each Archaeologist.
    case(PROFIT, [SOVAK, THOUGHT_MAKER, VASH, BOK], 28, NO_CHANGE, id="profit-four-one-each"),
    case(PROFIT, [RIKER, GOWRON], 0, id="profit-none-0"),
    # M23 Time Distortion: 10 for Ten-Forward and for each Cosmic.
    case(TIME, [TEN_FORWARD, CRYSTAL, TOX], 30, id="time-three"),
    case(TIME, [QUARTERS, RIKER], 0, id="time-none-0"),
    # M24 Trapped on the Holodeck: 15 with Holodeck 1/2 AND a Federation Personnel or Captain.
    case(TRAPPED, [HOLO1, RIKER], 15, id="trapped-holo1-personnel"),
    case(TRAPPED, [HOLO2, PICARD], 15, id="trapped-holo2-captain"),
    case(TRAPPED, [HOLO1, SAREK], 0, id="trapped-civilian-0"),
    case(TRAPPED, [HOLO1, GOWRON], 0, id="trapped-non-fed-captain-0"),
    case(TRAPPED, [COMPUTER, RIKER], 0, id="trapped-no-holodeck-0"),
]


@pytest.mark.parametrize(("card", "hand", "expected", "choices"), CASES)
def test_card(card, hand, expected, choices):
    assert points(hand, choices)[card] == expected


def test_every_card_has_a_case():
    tested = {p.values[0] for p in CASES}
    assert tested == set(catalog()[0])


# --- Blanking -------------------------------------------------------------------------------


def blanked(names, choices=None):
    return {c.name for c in score(names, choices).cards if c.blanked}


@pytest.mark.parametrize(
    ("hand", "expected_blanked"),
    [
        ([MORIARTY, RIKER], {MORIARTY}),
        ([MORIARTY, HOLO1], set()),
        ([MINUET, RIKER], {MINUET}),
        ([MINUET, COMPUTER], set()),
        ([INTRUDER, WORF], {INTRUDER}),
        ([INTRUDER, SOVAK], set()),
        ([CONFRONTATION, PICARD, CRYSTAL], set()),
        ([CONFRONTATION, PICARD, LORE], {CONFRONTATION}),  # Lore is non-Fed but neither
    ],
)
def test_blanked_unless(hand, expected_blanked):
    assert blanked(hand) == expected_blanked


def test_blanked_card_scores_and_gives_nothing():
    # Moriarty (blanked): Maddox would get 5 (Hologram), Sela 4 (Hostile), Virus 7, Siege 6.
    hand = [MORIARTY, MADDOX, SELA, VIRUS, SIEGE, DATA]
    result = points(hand)
    assert result[MORIARTY] == 0  # would be 8 for Data (Science/Engineer) + 8 for Maddox
    assert result[MADDOX] == 5  # Data only
    assert result[SELA] == 0
    assert result[VIRUS] == 0
    assert result[SIEGE] == 6  # Sela only


def test_blanked_minuet_gives_no_counselor():
    # Minuet (Counselor) blanked: Personnel Issues has Riker but no Counselor/Fed Captain.
    assert points([PERSONNEL_ISSUES, RIKER, MINUET])[PERSONNEL_ISSUES] == 0
    assert points([PERSONNEL_ISSUES, RIKER, MINUET, HOLO1])[PERSONNEL_ISSUES] == 14


def test_blanked_unless_in_card_number_order():
    # Intruder Alert (M13) is checked after Moriarty (G23) and only against standing cards:
    # Moriarty, blanked for want of a Holodeck/Computer, does not keep it in play.
    result = score([INTRUDER, MORIARTY, WORF, BATLETH])
    assert {c.name for c in result.cards if c.blanked} == {INTRUDER, MORIARTY}
    assert result.total == 10  # Worf: 4 for Bat'leth; Bat'leth: 6 (Worf is Klingon)
    # With Computer, Moriarty stands: Intruder Alert 12 (Worf) + 12 (Bat'leth) = 24.
    assert points([INTRUDER, MORIARTY, WORF, BATLETH, COMPUTER])[INTRUDER] == 24


def test_borg_cube_blanking_comes_before_blanked_unless():
    # Borg Cube blanks Holodeck 1: Moriarty loses his Holodeck and is blanked too.
    hand = [BORG, HOLO1, MORIARTY, DATA]
    result = score(hand, {BORG: {"blank": [HOLO1]}})
    assert {c.name for c in result.cards if c.blanked} >= {HOLO1, MORIARTY}
    got = {c.name: c.points for c in result.cards}
    assert got[BORG] == 5  # Data (Security)
    assert got[HOLO1] == 5  # scores what Borg Cube scores
    assert got[MORIARTY] == 0
    # Borg Cube blanks Gowron, the only non-Federation Captain: Space Confrontation blanked.
    got = points([BORG, GOWRON, RIKER, CONFRONTATION], {BORG: {"blank": [GOWRON]}})
    assert got[CONFRONTATION] == 0
    assert got[BORG] == 0  # Riker is neither Captain, Combat nor Security
    assert got[GOWRON] == 0


def test_borg_cube_blanked_card_gives_no_bonus_and_scores_as_borg():
    # blank Worf: Kurn loses his 10; Borg Cube counts Kurn (Captain) only = 5; Worf scores 5.
    got = points([BORG, KURN, WORF], {BORG: {"blank": [WORF]}})
    assert got == {BORG: 5, KURN: 0, WORF: 5}
    # blank Bridge: Borg = Gowron, Kurn, Worf = 15; Bridge 15; Gowron 10 (Kurn, Worf); Kurn 10;
    # Worf 0 (Bridge blanked).
    got = points([BORG, GOWRON, KURN, WORF, BRIDGE], {BORG: {"blank": [BRIDGE]}})
    assert got == {BORG: 15, GOWRON: 10, KURN: 10, WORF: 0, BRIDGE: 15}


def test_borg_cube_blanks_a_choice_card_or_a_blanked_unless_card():
    # Blanked Thought Maker changes nothing: Picard stays Federation, Sarek 0; Borg 5 (Picard).
    got = points(
        [BORG, THOUGHT_MAKER, SAREK, PICARD],
        {
            BORG: {"blank": [THOUGHT_MAKER]},
            THOUGHT_MAKER: {"target": PICARD, "affiliation": "klingon-empire"},
        },
    )
    assert got == {BORG: 5, THOUGHT_MAKER: 5, SAREK: 0, PICARD: 0}
    # Blanked Wesley scores Borg's 5 (Gowron), not a copy; Engine Room loses its Engineer.
    got = points([BORG, WESLEY, ENGINE_ROOM, GOWRON], {BORG: {"blank": [WESLEY]}})
    assert got == {BORG: 5, WESLEY: 5, ENGINE_ROOM: 0, GOWRON: 0}
    # Borg Cube blanks first (STM-R3), so Moriarty scores as Borg Cube even without a Holodeck.
    got = points([BORG, MORIARTY, GOWRON], {BORG: {"blank": [MORIARTY]}})
    assert got == {BORG: 5, MORIARTY: 5, GOWRON: 0}


@pytest.mark.parametrize("blank", [[AWAY_TEAM], [BORG], [GOWRON, KURN, LURSA], ["Spock"]])
def test_borg_cube_rejects_illegal_blanks(blank):
    with pytest.raises(ChoiceError):
        score([BORG, AWAY_TEAM, GOWRON, KURN, LURSA], {BORG: {"blank": blank}})


# --- Leah Brahms ----------------------------------------------------------------------------


def test_leah_brahms_counts_as_hologram_only_with_holodeck_or_computer():
    # Do Machines Have Rights? and Maddox see her as a Hologram with Computer...
    got = points([LEAH, COMPUTER, MADDOX, MACHINES, VIRUS])
    assert got[MADDOX] == 5
    assert got[MACHINES] == 18  # Leah (Hologram) 9 + Maddox (named) 9
    assert got[VIRUS] == 14  # Computer (System) + Leah (Hologram)
    assert got[LEAH] == 5
    # ... and as a Human otherwise.
    got = points([LEAH, MADDOX, MACHINES])
    assert (got[MADDOX], got[MACHINES], got[LEAH]) == (0, 9, 0)  # Machines: Maddox only


def test_leah_brahms_as_hologram_is_no_longer_human():
    # "counts as Hologram; otherwise counts as Human": with Computer she is not Human.
    got = points([PLAGUE, LEAH, COMPUTER], {PLAGUE: {"lifeform": "human"}})
    assert got[PLAGUE] == 0
    got = points([PLAGUE, LEAH], {PLAGUE: {"lifeform": "human"}})
    assert got[PLAGUE] == 5
    # Troi: Leah (hologram) and Beverly (human) are two lifeforms = 10.
    assert points([TROI, LEAH, BEVERLY, HOLO1])[TROI] == 10
    assert points([TROI, LEAH, BEVERLY])[TROI] == 5


def test_leah_brahms_is_still_federation_personnel_as_hologram():
    # Holodeck 1: Leah is a Hologram (8) and Federation Personnel (2): one bonus, 8.
    # Trapped on the Holodeck: she is the Federation Personnel.
    got = points([LEAH, HOLO1, TRAPPED])
    assert got[HOLO1] == 8
    assert got[TRAPPED] == 15


# --- Choice cards ---------------------------------------------------------------------------


def all_ship_choices():
    _, vocabulary, _ = catalog()
    for type_, lifeform, affiliation, specialty in itertools.product(
        ("personnel", "civilian", "captain"),
        vocabulary["lifeform"],
        vocabulary["affiliation"],
        vocabulary["specialty"],
    ):
        yield ship(type_, lifeform, affiliation, specialty)


def test_unidentified_ship_fixed_choice():
    # Ship as a Klingon Empire Captain: Gowron 5 for the Ship (Klingon/KE); Sarek 5 for the
    # Ship and 5 for Gowron (non-Federation Captains); Conflicting Orders 14 (two KE Commands).
    hand = [SHIP, GOWRON, SAREK, CONFLICTING]
    got = points(hand, ship("captain", "human", "klingon-empire", "command"))
    assert got == {SHIP: 0, GOWRON: 5, SAREK: 10, CONFLICTING: 14}
    # As a Federation Civilian it gives nothing here.
    got = points(hand, ship("civilian", "human", "federation", "command"))
    assert got == {SHIP: 0, GOWRON: 0, SAREK: 5, CONFLICTING: 0}


def test_unidentified_ship_rejects_illegal_choice():
    with pytest.raises(ChoiceError):
        score([SHIP, GOWRON], ship("system", "human", "federation", "command"))
    with pytest.raises(ChoiceError):
        score([SHIP, GOWRON], ship("captain", "human", "federation", "flying"))


def test_unidentified_ship_best_choice():
    # Best found by hand: Klingon-Empire Command Captain = 29 (as above). Exhaustive check over
    # every choice: the unfixed score equals the best fixed one.
    hand = [SHIP, GOWRON, SAREK, CONFLICTING]
    best = max(score(hand, c).total for c in all_ship_choices())
    assert best == 29
    assert score(hand).total == best


def test_thought_maker_fixed_choices():
    hand = [THOUGHT_MAKER, SAREK, PICARD]
    # Picard made Klingon Empire: a non-Federation Captain for Sarek (5); Thought Maker 5.
    got = points(hand, {THOUGHT_MAKER: {"target": PICARD, "affiliation": "klingon-empire"}})
    assert got == {THOUGHT_MAKER: 5, SAREK: 5, PICARD: 0}
    got = points(hand, NO_CHANGE)
    assert got == {THOUGHT_MAKER: 0, SAREK: 0, PICARD: 0}


@pytest.mark.parametrize("target", [THOUGHT_MAKER, "Spock"])
def test_thought_maker_rejects_itself_or_a_card_not_in_hand(target):
    with pytest.raises(ChoiceError):
        score(
            [THOUGHT_MAKER, BRIDGE, RIKER],
            {THOUGHT_MAKER: {"target": target, "affiliation": "hostile"}},
        )


@pytest.mark.parametrize(("target", "affiliation"), [(BRIDGE, "hostile"), (RIKER, "federation")])
def test_thought_maker_refuses_a_choice_that_changes_nothing(target, affiliation):
    # Bridge has no lifeform; Riker is already Federation: the card cannot do that.
    with pytest.raises(ChoiceError):
        points(
            [THOUGHT_MAKER, BRIDGE, RIKER],
            {THOUGHT_MAKER: {"target": target, "affiliation": affiliation}},
        )


def test_thought_maker_best_choice():
    # Sarek, Picard, Nakamura. No change: Nakamura 7 (Picard) = 7. Make Nakamura non-Federation:
    # Sarek 5, Thought Maker 5, Nakamura still 7 for Picard = 17 (the best). Making Picard
    # non-Federation costs Nakamura's 7: 5 + 5 = 10.
    hand = [THOUGHT_MAKER, SAREK, PICARD, NAKAMURA]
    assert score(hand, NO_CHANGE).total == 7
    fixed = {THOUGHT_MAKER: {"target": NAKAMURA, "affiliation": "hostile"}}
    assert score(hand, fixed).total == 17
    _, vocabulary, _ = catalog()
    options = [NO_CHANGE] + [
        {THOUGHT_MAKER: {"target": t, "affiliation": a}}
        for t in (SAREK, PICARD, NAKAMURA)
        for a in vocabulary["affiliation"]
        if catalog()[0][t].attributes["affiliation"] != (a,)
    ]
    best = max(score(hand, c).total for c in options)
    assert best == 17
    assert score(hand).total == best


@pytest.mark.parametrize(
    ("hand", "best"),
    [
        # Bok 8 (Thought Maker), Photon 6 (Bok, a non-Fed Captain). Only Bok has a lifeform; making
        # him Federation costs Photon's 6, so the best is Bok -> Hostile/KE/RSE: 8 + 6 + 5 = 19.
        ([THOUGHT_MAKER, BOK, PHOTON], 19),
        # Sarek 5 (Tog), Ten-Forward 4 (Sarek). Tog -> Hostile keeps both and adds 5: 14.
        ([THOUGHT_MAKER, BRIDGE, TOG, SAREK, TEN_FORWARD], 14),
        ([THOUGHT_MAKER, RIKER], 5),
    ],
)
def test_thought_maker_best_choice_when_no_rule_names_the_new_affiliation(hand, best):
    _, vocabulary, _ = catalog()
    options = [NO_CHANGE] + [
        {THOUGHT_MAKER: {"target": t, "affiliation": a}}
        for t in hand[1:]
        for a in vocabulary["affiliation"]
        if catalog()[0][t].attributes["lifeform"]
        and catalog()[0][t].attributes["affiliation"] != (a,)
    ]
    assert max(score(hand, c).total for c in options) == best
    assert score(hand).total == best


def test_borg_cube_best_choice():
    # No blank: Borg 15 (three Captains), Gowron 10 (Kurn, Lursa) = 25. Holodeck 1 and Quarters
    # score nothing here, so Borg Cube blanks both: each scores 15 -> 55.
    hand = [BORG, GOWRON, KURN, LURSA, HOLO1, QUARTERS]
    assert score(hand, NO_BLANK).total == 25
    assert score(hand, {BORG: {"blank": [HOLO1, QUARTERS]}}).total == 55
    galaxy = [GOWRON, KURN, LURSA, HOLO1, QUARTERS]
    options = [list(c) for n in range(3) for c in itertools.combinations(galaxy, n)]
    best = max(score(hand, {BORG: {"blank": b}}).total for b in options)
    assert best == 55
    result = score(hand)
    assert result.total == best
    assert sorted(result.choices[BORG]["blank"]) == sorted([HOLO1, QUARTERS])


def test_mysterious_plague_choices():
    hand = [PLAGUE, WORF, GOWRON, RIKER, BEVERLY]
    # Medical: Beverly 5. Klingon: Worf, Gowron 16 -> 21. Human: Riker 5 (+ Beverly is already
    # counted as Medical: one bonus) -> 10.
    assert points(hand, {PLAGUE: {"lifeform": "klingon"}})[PLAGUE] == 21
    assert points(hand, {PLAGUE: {"lifeform": "human"}})[PLAGUE] == 10
    _, vocabulary, _ = catalog()
    allowed = [v for v in vocabulary["lifeform"] if v not in ("hologram", "android")]
    best = max(score(hand, {PLAGUE: {"lifeform": v}}).total for v in allowed)
    assert best == 26  # Plague 21 + Gowron 5 (Worf is Klingon)
    assert score(hand).total == best


@pytest.mark.parametrize("lifeform", ["hologram", "android", "gorn"])
def test_mysterious_plague_rejects_hologram_and_android(lifeform):
    with pytest.raises(ChoiceError):
        score([PLAGUE, DATA, MORIARTY, COMPUTER], {PLAGUE: {"lifeform": lifeform}})


def test_wesley_copy_choices():
    # Engine Room: Wesley, Geordi = 12. Geordi: Computer 4 + Engine Room 4 = 8. Computer: Crystal
    # Entity (Cosmic) 6. Wesley copies the best: 12.
    hand = [WESLEY, ENGINE_ROOM, GEORDI, COMPUTER, CRYSTAL]
    expected = {ENGINE_ROOM: 12, GEORDI: 8, COMPUTER: 6}
    for target, value in expected.items():
        assert points(hand, {WESLEY: {"copies": target}})[WESLEY] == value
    assert points(hand)[WESLEY] == 12
    assert score(hand).total == max(score(hand, {WESLEY: {"copies": t}}).total for t in expected)


def test_wesley_does_not_copy_blanked_card():
    # Borg Cube blanks Engine Room: it scores Borg's 0 and Wesley may not copy it; Geordi (4 for
    # Computer) is left.
    hand = [WESLEY, ENGINE_ROOM, GEORDI, COMPUTER, BORG]
    got = points(hand, {BORG: {"blank": [ENGINE_ROOM]}})
    assert got[WESLEY] == 4
