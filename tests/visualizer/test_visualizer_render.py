"""Rendering and the `meeplang diagram` command, with and without Graphviz's `dot`."""
from __future__ import annotations

import shutil

import pytest

from meeplang.dsl.errors import UsageError
from meeplang.dsl.resolve import load_game
from meeplang.cli import main
from meeplang.visualizer import render, svg
from meeplang.visualizer.render import INSTALL_HINT

HAVE_DOT = shutil.which("dot") is not None
needs_dot = pytest.mark.skipif(not HAVE_DOT, reason="Graphviz's dot is not installed")


@pytest.fixture
def no_dot(tmp_path, monkeypatch):
    """A PATH on which there is no `dot`."""
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    assert shutil.which("dot") is None


def test_format_dot_works_without_the_binary(no_dot, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["diagram", "pig", "--format", "dot"]) == 0
    out = tmp_path / "pig.dot"
    assert capsys.readouterr().out.strip() == "pig.dot"
    text = out.read_text(encoding="utf-8")
    assert text.startswith("// Meeplang rules diagram") and "digraph" in text
    assert main(["diagram", "goofspiel", "-o", str(tmp_path / "g.dot")]) == 0  # from -o's suffix
    assert "digraph" in (tmp_path / "g.dot").read_text(encoding="utf-8")
    assert render(load_game("pig"), "dot").startswith(b"// Meeplang")


@pytest.mark.parametrize("fmt", ["svg", "png", "pdf"])
def test_rendering_without_the_binary_says_to_install_graphviz(no_dot, fmt):
    with pytest.raises(UsageError) as err:
        render(load_game("pig"), fmt)
    assert "install the OS package graphviz" in err.value.message
    assert "apt-get install graphviz" in err.value.message


def test_cli_without_the_binary_exits_2_with_the_hint(no_dot, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["diagram", "pig"]) == 2
    err = capsys.readouterr().err
    assert "apt-get install graphviz" in err and "Traceback" not in err
    assert not (tmp_path / "pig.svg").exists()
    assert main(["report", "pig", "-o", str(tmp_path / "r")]) == 2
    assert "apt-get install graphviz" in capsys.readouterr().err


def test_svg_without_the_binary_raises(no_dot):
    with pytest.raises(UsageError, match="graphviz"):
        svg(load_game("goofspiel"))


def test_install_hint_names_the_package():
    assert "graphviz" in INSTALL_HINT and "--format dot" in INSTALL_HINT


@needs_dot
def test_default_output_names(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["diagram", "pig"]) == 0
    assert capsys.readouterr().out.strip() == "pig.svg"
    assert (tmp_path / "pig.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")
    game = load_game("pig")
    if game.variants:
        variant = game.variants[0][0]
        assert main(["diagram", f"pig:{variant}", "--lang", "fr"]) == 0
        assert capsys.readouterr().out.strip() == f"pig-{variant}.svg"
        assert (tmp_path / f"pig-{variant}.svg").is_file()


@needs_dot
@pytest.mark.parametrize("fmt,magic", [("svg", b"<?xml"), ("png", b"\x89PNG"), ("pdf", b"%PDF")])
def test_formats(tmp_path, fmt, magic, capsys):
    out = tmp_path / f"goofspiel.{fmt}"
    assert main(["diagram", "goofspiel", "-o", str(out), "--detail", "full"]) == 0
    assert out.read_bytes().startswith(magic)
    assert capsys.readouterr().out.strip() == str(out)


@needs_dot
def test_explicit_format_wins_over_suffix(tmp_path):
    out = tmp_path / "diagram.out"
    assert main(["diagram", "pig", "-o", str(out), "--format", "png"]) == 0
    assert out.read_bytes().startswith(b"\x89PNG")


@needs_dot
def test_svg_for_notebooks():
    text = svg(load_game("goofspiel"), detail="actions", lang="fr")
    assert "<svg" in text and "Enchères" in text


def test_bad_target_is_a_clean_error(capsys):
    assert main(["diagram", "no_such_game", "--format", "dot"]) == 2
    err = capsys.readouterr().err
    assert "no_such_game" in err and "Traceback" not in err
    assert main(["diagram", "pig:no_such_variant", "--format", "dot"]) == 2


def test_bad_detail_is_refused_by_argparse(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["diagram", "pig", "--detail", "everything"])
    assert exc.value.code == 2


@needs_dot
@pytest.mark.parametrize("title", ["ends in a backslash \\\\", "holds a NUL \\0 here",
                                   "x" * 17_000, "quote \\\" and \\\\\\\" mixed"])
@pytest.mark.parametrize("text", ["prose", "rules"])
def test_any_title_term_or_rule_draws(write_game, title, text):
    """DOT's own limits (a NUL ends its text, a trailing backslash escapes the closing quote, a
    token is at most 16,384 characters) are never met: every text is cleaned and cut."""
    effect = "\\n".join(["gain 1 coins"] * 1_500)  # 19,500 characters: within a rule's limit
    name = write_game(f'''
        game: g
        title: "{title}"
        players: [2, 2]
        terms:
          earn: {{en: "{title}"}}
        counters:
          coins: {{per: player, initial: 0}}
        flow:
          - turns: {{first: 0, actions: [earn], per_turn: 1, until: one_round}}
        actions:
          earn:
            effect: "{effect}"
        scoring: {{score: coins}}
    ''')
    game = load_game(name)
    data = render(game, "svg", "full", text=text)
    assert data.startswith(b"<?xml") or b"<svg" in data[:500]
