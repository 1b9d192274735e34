"""Choosing the engine's build: compiled only while it matches its sources."""

import os
import subprocess
import sys
import warnings

import pytest

import matches.rules
from matches.rules import native


@pytest.fixture
def fresh_build(tmp_path):
    (tmp_path / "STAMP").write_text(native.stamp())
    return tmp_path


def test_a_fresh_build_goes_first_on_the_package_path(fresh_build):
    path = ["/the/package"]
    assert native.activate(path, build_dir=fresh_build, environ={}) is True
    assert path == [str(fresh_build), "/the/package"]


def test_a_build_never_made_leaves_plain_python_quietly(tmp_path):
    path = ["/the/package"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert native.activate(path, build_dir=tmp_path, environ={}) is False
    assert path == ["/the/package"]
    assert native.why_not_fresh(tmp_path) == "it has not been built (scripts/setup builds it)"


def test_a_stale_build_is_not_used_and_says_why(fresh_build):
    # what the stamp of a build made before an edit to the sources looks like
    (fresh_build / "STAMP").write_text("0" * 64 + native.stamp()[64:])
    path = ["/the/package"]
    with pytest.warns(RuntimeWarning, match="older than its sources"):
        assert native.activate(path, build_dir=fresh_build, environ={}) is False
    assert path == ["/the/package"]


def test_a_build_for_another_python_is_not_used(fresh_build):
    digest = native.stamp().split()[0]
    (fresh_build / "STAMP").write_text(f"{digest} cpython-399 .cpython-399-x86_64.so\n")
    assert "another Python" in (native.why_not_fresh(fresh_build) or "")


def test_plain_python_can_be_forced(fresh_build):
    path = ["/the/package"]
    assert native.activate(path, build_dir=fresh_build,
                           environ={"SCOREKEEPER_ENGINE": "python"}) is False
    assert path == ["/the/package"]


def test_asking_for_the_compiled_build_makes_a_missing_one_an_error(tmp_path):
    with pytest.raises(native.CompiledEngineUnavailable, match="has not been built"):
        native.activate([], build_dir=tmp_path, environ={"SCOREKEEPER_ENGINE": "compiled"})


def test_an_unknown_choice_is_refused(fresh_build):
    with pytest.raises(ImportError, match="must be 'python' or 'compiled', not 'fast'"):
        native.activate([], build_dir=fresh_build, environ={"SCOREKEEPER_ENGINE": "fast"})


def test_the_stamp_follows_every_source_byte(monkeypatch, tmp_path):
    for name in native.MODULES:
        (tmp_path / f"{name}.py").write_bytes((native.PACKAGE_DIR / f"{name}.py").read_bytes())
    monkeypatch.setattr(native, "PACKAGE_DIR", tmp_path)
    before = native.stamp()
    assert before == native.stamp()
    with (tmp_path / "layout.py").open("a") as source:
        source.write("\n")
    assert native.stamp() != before


def test_this_process_runs_the_build_it_should():
    wanted = os.environ.get("SCOREKEEPER_ENGINE", "")
    expected = wanted != "python" and native.why_not_fresh() is None
    assert matches.rules.COMPILED is expected
    compiled_module = type(matches.rules.Layout.put).__name__ != "function"
    assert compiled_module is expected


# Replays simulated records of every game, and each once more with one value changed at
# random, printing per record the summary or the refusal: the two builds must agree.
BOTH_BUILDS_SCRIPT = """
import copy, json, random
import matches.rules as rules
from matches.rules.simulate import simulated_record
configs = [(rules.ALL_FIVES, 3, None), (rules.ALL_FIVES, 4, None),
           (rules.FIVE_UP, 2, {"target": 31}), (rules.FIVES_AND_THREES, 3, None),
           (rules.FIVES_AND_THREES, 4, {"set": "double-nine", "drawing": True})]
values = [None, True, 0, 1, -1, 7, 2.5, "", "6-6", "1-2:2", "5", [], [0], {}]
rng = random.Random(20261130)
print("compiled" if rules.COMPILED else "plain")
for number in range(60):
    game, players, options = configs[number % len(configs)]
    record = simulated_record(game, players, seed=number, options=options, max_rounds=4,
                              pips=number % 2 == 0)
    mutated = copy.deepcopy(record)
    holder, key = mutated, "rounds"
    while isinstance(holder[key], (dict, list)) and holder[key] and rng.random() < 0.8:
        holder = holder[key]
        key = rng.choice(list(holder)) if isinstance(holder, dict) else rng.randrange(len(holder))
    holder[key] = rng.choice(values)
    for document in (record, mutated):
        try:
            print(rules.record.dumps_summary(rules.replay(document)))
        except rules.RecordInvalid as error:
            print("refused:", error)
"""


def test_both_builds_answer_every_record_alike():
    if native.why_not_fresh() is not None:
        pytest.skip("the compiled build is not fresh")
    outputs = {}
    for build in ("python", "compiled"):
        done = subprocess.run([sys.executable, "-c", BOTH_BUILDS_SCRIPT],
                              cwd=native.PACKAGE_DIR.parents[1], capture_output=True, text=True,
                              env={**os.environ, "SCOREKEEPER_ENGINE": build}, check=True)
        outputs[build] = done.stdout.splitlines()
    plain, compiled = outputs["python"], outputs["compiled"]
    assert (plain[0], compiled[0]) == ("plain", "compiled")
    assert len(plain) == 1 + 2 * 60
    assert any(line.startswith("refused:") for line in plain)  # the mutations bite
    assert compiled[1:] == plain[1:]
