"""The rules engine's words in the reader's language (matches/core/messages.py).

The engine gives every error it raises, every settlement step and every refused award a
code and parameters; the app says each code with a translatable text. These tests hold
the two together: every code the engine can use has a text with the same placeholders,
the engine uses no code without one, and real errors come out in Ukrainian and Russian.
"""

from __future__ import annotations

import ast
import json
import re
import uuid
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from matches import rules
from matches.core import messages as rules_messages
from matches.core.messages import PLURALS, TEMPLATES, explain, say
from matches.records.services import record_store
from matches.rules.errors import MESSAGES
from matches.rules.league import read_league
from matches.scoring.services.play import event_record, round_start
from tests.support.helpers import T, two_player_all_fives

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "matches" / "rules"
# what an error's constructor is called to raise it with a code (``LeagueInvalid.at``
# takes the place first, ``RecordInvalid.at`` the code first)
CODE_ARGUMENT = {("LeagueInvalid", "at"): 1, ("RecordInvalid", "at"): 0}


def engine_placeholders(code: str) -> set[str]:
    return set(re.findall(r"(?<!\{)\{(\w+)\}", MESSAGES[code]))


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"%\((\w+)\)s", text))


def error_classes() -> set[str]:
    """The names of every rules error class, the engine's and the record's."""
    names = {name for name, value in vars(rules).items()
             if isinstance(value, type) and issubclass(value, rules.RulesError)}
    return names | {"RecordError", "LeagueInvalid", "RecordInvalid"}


def engine_sources() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(ENGINE.glob("*.py")):
        yield path, ast.parse(path.read_text(), str(path))


def used_codes() -> tuple[set[str], list[str]]:
    """The codes the engine's source names, and the code patterns it builds (f-strings,
    as regular expressions)."""
    codes: set[str] = set()
    patterns: list[str] = []

    def collect(node: ast.expr, assigned: dict[str, list[ast.expr]], where: str) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            codes.add(node.value)
        elif isinstance(node, ast.JoinedStr):
            patterns.append("".join(
                re.escape(str(part.value)) if isinstance(part, ast.Constant) else r"\w+"
                for part in node.values))
        elif isinstance(node, ast.IfExp):
            collect(node.body, assigned, where)
            collect(node.orelse, assigned, where)
        elif isinstance(node, ast.Name) and node.id in assigned:
            for value in assigned[node.id]:  # a code chosen just before, in the function
                collect(value, assigned, where)
        else:
            raise AssertionError(f"{where}: the code is not a literal")

    for _path, tree in engine_sources():
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            assigned: dict[str, list[ast.expr]] = {}
            for node in ast.walk(function):
                if isinstance(node, ast.Assign):
                    for target in node.targets:
                        if isinstance(target, ast.Name):
                            assigned.setdefault(target.id, []).append(node.value)
            for node in ast.walk(function):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                if isinstance(func, ast.Attribute) and func.attr in ("of", "at"):
                    owner = func.value.id if isinstance(func.value, ast.Name) else ""
                    if func.attr == "at" and (owner, "at") not in CODE_ARGUMENT:
                        continue
                    argument = node.args[CODE_ARGUMENT.get((owner, func.attr), 0)]
                elif isinstance(func, ast.Name) and func.id == "Message":
                    argument = node.args[0]
                else:
                    continue
                collect(argument, assigned, ast.unparse(node))
    return codes, patterns


@pytest.fixture(autouse=True)
def _language_kept():
    """A request through LocaleMiddleware leaves its language active in the thread:
    give the next test the one it had."""
    language = translation.get_language()
    yield
    translation.activate(language)


# -- every code has a text, and the engine uses only those ---------------------------


def test_every_code_the_engine_may_use_has_one_template():
    assert not set(TEMPLATES) & set(PLURALS)
    assert set(TEMPLATES) | set(PLURALS) == set(MESSAGES)


def test_each_template_has_the_placeholders_of_the_engine_message():
    with translation.override("en"):
        for code in MESSAGES:
            if code in PLURALS:
                _key, plural = PLURALS[code]
                texts = [plural(1), plural(5)]
            else:
                texts = [str(TEMPLATES[code])]
            for text in texts:
                assert placeholders(text) == engine_placeholders(code), code


def test_a_plural_template_counts_a_parameter_of_its_message():
    for code, (key, _plural) in PLURALS.items():
        assert key in engine_placeholders(code), code


def test_the_engine_names_only_registered_codes_and_all_of_them():
    codes, patterns = used_codes()
    assert codes <= set(MESSAGES), codes - set(MESSAGES)
    built = {code for code in MESSAGES for pattern in patterns if re.fullmatch(pattern, code)}
    assert codes | built == set(MESSAGES), set(MESSAGES) - codes - built


def test_the_engine_raises_no_error_without_a_code():
    """Every raise of a rules error goes through .of, .at or .wrap: a bare message
    (``raise IllegalPlacement(f"...")``) would have no code for the app to translate."""
    classes = error_classes()
    bare = []
    for path, tree in engine_sources():
        for node in ast.walk(tree):
            if (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
                    and isinstance(node.exc.func, ast.Name) and node.exc.func.id in classes):
                bare.append(f"{path.name}:{node.lineno}")
    assert bare == []


# -- English: the engine's own words ---------------------------------------------------


def refusals() -> Iterator[rules.RulesError]:
    """Real refusals from the engine: a placement, a pass, a record, a league."""
    layout = rules.Layout(rules.SpinnerPolicy.NONE)
    layout.place(rules.Tile(1, 4))
    with pytest.raises(rules.IllegalPlacement) as placement:
        layout.place(rules.Tile(3, 5), rules.AttachmentPoint.parse("1-4:4"))
    yield placement.value
    match = rules.Match(rules.ALL_FIVES, ["Olena", "Taras"], labels=["Olena", "Taras"])
    match.start_round(starter=0)
    match.play(0, rules.Tile(5, 5))
    with pytest.raises(rules.BoneyardNotEmpty) as passing:
        match.pass_(1)
    yield passing.value
    with pytest.raises(rules.RecordInvalid) as record:
        rules.replay(record_with_a_miscall())
    yield record.value
    with pytest.raises(rules.LeagueInvalid) as league:
        read_league(league_with_a_stranger())
    yield league.value


def record_with_a_miscall() -> dict[str, object]:
    return {"format": "domino-match/1", "game": "all-fives", "players": ["Ann", "Bo"],
            "rounds": [{"starter": 0, "events": [
                {"seat": 0, "play": "5-5"}, {"seat": 1, "play": "5-6", "at": "5-5:5",
                                             "claim": 15}]}]}


def league_with_a_stranger() -> dict[str, object]:
    return {"format": "domino-league/1", "name": "Ladder", "game": "five-up",
            "entrants": [{"name": "Ann"}, {"name": "Bob"}],
            "fixtures": [{"home": "Ann", "away": "Dee", "postponed": True}]}


def test_in_english_an_error_reads_as_the_engine_wrote_it():
    with translation.override("en"):
        for error in refusals():
            assert error.code
            assert explain(error) == str(error)


def test_a_nested_error_keeps_its_code_and_parameters_and_its_place():
    with pytest.raises(rules.RecordInvalid) as caught:
        rules.replay(record_with_a_miscall())
    error = caught.value
    assert (error.code, error.params, error.round, error.event) == (
        "claim_mismatch", {"claim": "15", "total": 0, "end_sum": 16}, 1, 2)
    assert str(error) == "round 1, event 2: claim 15 differs from the 0 the rules give " \
                         "(end sum 16)"


def test_an_error_from_outside_the_engine_falls_back_to_its_message():
    error = rules.RulesError("the document is not a JSON object")
    assert error.code == ""
    with translation.override("uk"):
        assert explain(error) == "the document is not a JSON object"


# -- Ukrainian and Russian -----------------------------------------------------------


@pytest.mark.parametrize(("lang", "expected"), [
    ("uk", ["у плитки 3-5 немає 4, щоб приєднати її в 1-4:4",
            "Taras не може пропустити хід, поки в запасі 10 плиток",
            "раунд 1, подія 2: названо 15, а за правилами 0 (сума кінців 16)",
            "зустріч 1: away: \"Dee\" не є учасником"]),
    ("ru", ["у костяшки 3-5 нет 4, чтобы присоединить её в 1-4:4",
            "Taras не может пропустить ход, пока в прикупе 10 костяшек",
            "раунд 1, событие 2: названо 15, а по правилам 0 (сумма концов 16)",
            "встреча 1: away: \"Dee\" не участник"]),
])
def test_real_errors_are_said_in_the_readers_language(lang, expected):
    with translation.override(lang):
        assert [explain(error) for error in refusals()] == expected


@pytest.mark.parametrize(("tiles", "uk", "ru"), [
    (1, "1 плитка", "1 костяшка"), (3, "3 плитки", "3 костяшки"),
    (11, "11 плиток", "11 костяшек"), (22, "22 плитки", "22 костяшки"),
])
def test_counts_take_the_plural_the_language_needs(tiles, uk, ru):
    error = rules.BoneyardNotEmpty.of("boneyard_not_empty", who="seat 1", boneyard=tiles)
    with translation.override("uk"):
        assert explain(error) == f"місце 1 не може пропустити хід, поки в запасі {uk}"
    with translation.override("ru"):
        assert explain(error) == f"место 1 не может пропустить ход, пока в прикупе {ru}"


def test_settlement_steps_and_a_refused_award_are_said_in_the_readers_language():
    options = rules.ALL_FIVES.options(2)
    settled = rules.ALL_FIVES.settle(options, 2, [0, 13], 0, ["Ann", "Bo"])  # Ann went out
    assert settled.steps[-2:] == ("13 rounds up to 15 (remainder 3)", "Ann scores 15")
    with translation.override("uk"):
        assert rules_messages.steps(settled) == [
            "Ann: 0 (сума залишків)", "Bo: 13 (сума залишків)",
            "Ann: остання плитка викладена, раунд виграно", "залишки суперників: 13",
            "13 округлюється вгору до 15 (залишок 3)", "Ann отримує 15"]
    overshoot = rules.Match(rules.FIVES_AND_THREES, ["Ann", "Bo"], {"target": 1},
                            labels=["Ann", "Bo"])
    overshoot.start_round(starter=0)
    award = overshoot.play(0, rules.Tile(5, 5))  # 10: two points, past the target 1
    assert award.refused == "2 would take Ann from 0 past the target 1"
    with translation.override("ru"):
        assert rules_messages.refusal(award) == "2 вывели бы счёт (Ann) с 0 за лимит 1"
    with translation.override("uk"):
        assert rules_messages.refusal(award) == \
            "2 вивели б рахунок (Ann) з 0 понад ціль 1"
    with translation.override("en"):
        assert say(rules.Message("step_split", points=rules.show_points(Fraction(5, 2)))) \
            == "split equally: 2½ each"


@pytest.mark.parametrize(("lang", "lowest", "scores"), [
    ("en", "blocked: Bo + Di have the lowest total and win the round", "Bo + Di score 10"),
    ("uk", "блокування: найменша сума — Bo + Di, раунд виграно", "Bo + Di отримують 10"),
    ("ru", "блокировка: наименьшая сумма — Bo + Di, раунд выигран", "Bo + Di получают 10"),
])
def test_a_partnerships_settlement_is_said_in_the_plural(lang, lowest, scores):
    settled = rules.ALL_FIVES.settle(rules.ALL_FIVES.options(4), 4, [3, 5, 6, 3], None,
                                     ["Ann", "Bo", "Cy", "Di"])
    with translation.override(lang):
        steps = rules_messages.steps(settled)
    assert lowest in steps
    assert steps[-1] == scores


@pytest.mark.django_db
def test_a_record_file_that_is_refused_says_why_in_the_readers_language():
    from matches.records.files import record_sources

    text = json.dumps(record_with_a_miscall())
    with translation.override("ru"):
        (source,) = record_sources("match.json", text)
        assert source.error is None  # read; refused only when replayed
        why = record_store(source=source).message
    assert why == "раунд 1, событие 2: названо 15, а по правилам 0 (сумма концов 16)"


@pytest.mark.django_db
def test_the_scorepad_refuses_a_tap_in_the_readers_language(client):
    match = two_player_all_fives()
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("5-5")))
    response = client.post(match.get_join_url())
    assert response.status_code == 302
    match.refresh_from_db()
    url = reverse("matches:pass", kwargs={"public_id": match.public_id})
    tap = {"version": match.version, "key": str(uuid.uuid4()), "seat": 1}  # Taras's turn
    html = client.post(url, tap, HTTP_HX_REQUEST="true",
                       HTTP_ACCEPT_LANGUAGE="uk").content.decode()
    found = re.search(r'id="scorepad-error">([^<]+)<', html)
    assert found is not None
    assert found.group(1) == "Taras не може пропустити хід, поки в запасі 24 плитки"


def test_a_file_that_is_not_json_is_said_in_the_readers_words_with_where():
    with pytest.raises(rules.RecordInvalid) as caught:
        rules.loads('{"format": "domino-match/1",')
    # the engine's English is the parser's, word for word (the reference reader's)
    assert str(caught.value) == ("not valid JSON: Expecting property name enclosed in double "
                                 "quotes: line 1 column 29 (char 28)")
    assert explain(caught.value) == ("not valid JSON at line 1, column 29 (character 28): a "
                                     "name in double quotes was expected")
    with translation.override("uk"):
        assert "рядок 1" in explain(caught.value) and "Expecting" not in explain(caught.value)


@pytest.mark.parametrize(("lang", "expected"), [
    ("uk", "поєдинок 1 раунду 1: його переможець може змінитися, лише поки поєдинок 2 раунду 1 "
           "втішного кубка не зіграно, або через адміністратора, який скидає поєдинки після нього"),
    ("ru", "поединок 1 раунда 1: его победитель может измениться, только пока поединок 2 раунда 1 "
           "утешительного кубка не сыгран, или через администратора, который сбрасывает поединки "
           "после него"),
    ("en", "tie 1 of round 1: its winner can change only while plate tie 2 of round 1 is "
           "unplayed, or by an admin who resets the ties after it"),
])
def test_a_cups_ties_are_named_in_the_readers_language(lang, expected):
    """The rules name a tie in English ("plate tie 2 of round 1"), as "seat 2": the reader
    reads it in their own words."""
    error = rules.CupError.of("cup_correction_played", tie="tie 1 of round 1",
                              next="plate tie 2 of round 1")
    with translation.override(lang):
        assert explain(error) == expected
        assert rules_messages.cup_round_words("plate round 2: — → 2026-10-19").startswith(
            {"uk": "раунд 2 втішного кубка:", "ru": "раунд 2 утешительного кубка:",
             "en": "plate round 2:"}[lang])
