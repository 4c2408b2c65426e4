"""The scenario runner (SCENARIOS.md): output, exit codes and clear errors for malformed files."""

import textwrap

from games.engine.scenarios import main, run_file

GOOD = """
name: Passing GO pays the salary, and so does the card that advances to GO
ruleset: classic
players: [ann, bob]
setup:
  players:
    ann: {position: 38}
steps:
  - {player: ann, action: roll, dice: [1, 3]}
expect:
  players:
    ann: {cash: 1900, position: 0}
"""


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def test_a_passing_scenario_prints_the_count_and_exits_zero(tmp_path, capsys):
    # Landing on 2 draws Community Chest; its top card in rule-book order is advance_to_go_cc.
    write(tmp_path, "good.yaml", GOOD)
    assert main([str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip().splitlines() == ["1 passed, 0 failed"]


def test_a_wrong_expectation_fails_with_the_difference(tmp_path, capsys):
    write(tmp_path, "bad.yaml", GOOD.replace("position: 0}", "position: 3}"))
    assert main([str(tmp_path / "bad.yaml")]) == 1
    out = capsys.readouterr().out
    assert "ann.position: expected 3" in out
    assert out.strip().splitlines()[-1] == "0 passed, 1 failed"


def test_a_refused_step_must_leave_the_state_unchanged(tmp_path):
    path = write(tmp_path, "refused.yaml", """
        name: Buying out of turn is refused
        ruleset: classic
        players: [ann, bob]
        steps:
          - {player: bob, action: roll, dice: [1, 2], error: true}
          - {player: ann, action: end_turn, error: true}
        expect: {current_player: ann, pending: roll}
    """)
    [result] = run_file(path)
    assert result.ok, result.message


def test_an_unexpected_refusal_is_reported_with_the_engines_reason(tmp_path):
    path = write(tmp_path, "x.yaml", """
        name: x
        ruleset: classic
        players: [ann, bob]
        steps:
          - {player: bob, action: roll, dice: [1, 2]}
    """)
    [result] = run_file(path)
    assert not result.ok
    assert "step 1" in result.message and "ann's turn" in result.message


def test_missing_dice_fail_the_step(tmp_path):
    path = write(tmp_path, "x.yaml", """
        name: x
        ruleset: classic
        players: [ann, bob]
        steps:
          - {player: ann, action: roll, dice: [1]}
    """)
    [result] = run_file(path)
    assert not result.ok and "step 1" in result.message and "die" in result.message


def test_malformed_files_fail_with_clear_messages_not_tracebacks(tmp_path, capsys):
    write(tmp_path, "a_yaml.yaml", "name: [unclosed\n")
    write(tmp_path, "b_typo_key.yaml", "name: x\nruleset: classic\nplayers: [ann, bob]\nstpes: []\n")
    write(tmp_path, "c_preset.yaml", "name: x\nruleset: clasic\nplayers: [ann, bob]\n")
    write(tmp_path, "d_player.yaml", "name: x\nruleset: classic\nplayers: [ann, bob]\n"
                                     "steps:\n  - {player: cy, action: roll, dice: [1, 2]}\n")
    write(tmp_path, "e_action.yaml", "name: x\nruleset: classic\nplayers: [ann, bob]\n"
                                     "steps:\n  - {player: ann, action: rol}\n")
    write(tmp_path, "f_card.yaml", "name: x\nruleset: classic\nplayers: [ann, bob]\n"
                                   "setup: {decks: {chance: [advance_to_mars]}}\n")
    write(tmp_path, "g_option.yaml", "name: x\nruleset: classic\noptions: {salry: 1}\nplayers: [ann, bob]\n")
    write(tmp_path, "h_list.yaml", "- 1\n- 2\n")
    assert main([str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "Traceback" not in out and "internal error" not in out
    for expected in ("not valid YAML", "unknown key(s) stpes", "unknown preset 'clasic'", "unknown player 'cy'",
                     "unknown action 'rol'", "unknown card 'advance_to_mars'", "unknown option 'salry'",
                     "must be a mapping"):
        assert expected in out, expected
    assert out.strip().splitlines()[-1] == "0 passed, 9 failed"


def test_a_missing_path_is_a_failure(tmp_path, capsys):
    assert main([str(tmp_path / "nope.yaml")]) == 1
    assert "no such file" in capsys.readouterr().out


def test_setup_jail_cards_come_out_of_the_decks(tmp_path):
    path = write(tmp_path, "x.yaml", """
        name: A held jail card is not in the deck
        ruleset: classic
        players: [ann, bob]
        setup:
          players:
            ann: {in_jail: true, jail_cards: 1}
        steps:
          - {player: ann, action: use_card}
          - {player: ann, action: roll, dice: [3, 5]}
        expect:
          pending: buy
          players:
            ann: {in_jail: false, position: 18, jail_cards: 0}
          decks:
            chance: [advance_to_boardwalk]
    """)
    [result] = run_file(path)
    assert result.ok, result.message
