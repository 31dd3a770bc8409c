"""A PNG of a simulation (matplotlib, Agg backend, imported lazily — the ``[plot]`` extra):
the win rates with their 95 % intervals, each character's chance to go down, and the
distribution of the fights' lengths in rounds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.simulate.stats import Summary

_CJK_FONTS = ("Noto Sans CJK JP", "Noto Sans JP", "IPAexGothic", "IPAGothic", "TakaoGothic")


def _cjk_font(font_manager: Any) -> str | None:
    """A font with kana and kanji (character names), when one is installed."""
    installed = {font.name for font in font_manager.fontManager.ttflist}
    return next((name for name in _CJK_FONTS if name in installed), None)


def write_plot(summary: Summary, path: str | Path) -> Path:
    from saikoro.errors import require_extra

    require_extra("matplotlib", "plot", Message("グラフ (--plot)", "a plot (--plot)"))
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import font_manager

    font = _cjk_font(font_manager)
    names = [c.name if font else f"#{i + 1}" for i, c in enumerate(summary.characters)]
    target = Path(path)
    style: dict[Any, Any] = {"font.family": [font, "sans-serif"]} if font else {}
    with plt.rc_context(style):
        figure, (wins, downs, rounds) = plt.subplots(
            1, 3, figsize=(13, 4.5), dpi=110, gridspec_kw={"width_ratios": [1, 2, 2]}
        )
        try:
            sides = [
                ("pc", "party", "#4c72b0"),
                ("npc", "enemies", "#c44e52"),
                ("draw", "draw", "#999999"),
            ]
            values = [100 * summary.wins[s].value for s, _, _ in sides]
            errors = [
                [100 * (summary.wins[s].value - summary.wins[s].interval[0]) for s, _, _ in sides],
                [100 * (summary.wins[s].interval[1] - summary.wins[s].value) for s, _, _ in sides],
            ]
            wins.bar(
                [label for _, label, _ in sides],
                values,
                yerr=errors,
                capsize=4,
                color=[colour for _, _, colour in sides],
            )
            wins.set_ylim(0, 105)
            wins.set_ylabel("%")
            wins.set_title("win rate (95% CI)")
            colours = ["#4c72b0" if c.side == "pc" else "#c44e52" for c in summary.characters]
            down = [100 * c.down.value for c in summary.characters]
            downs.bar(range(len(names)), down, color=colours)
            downs.set_xticks(range(len(names)))
            downs.set_xticklabels(names, rotation=30, ha="right")
            downs.set_ylim(0, 105)
            downs.set_title("chance to go down (%)")
            lengths = sorted(summary.rounds)
            rounds.bar(lengths, [100 * summary.rounds[r] / summary.fights for r in lengths])
            rounds.set_xlabel("rounds")
            rounds.set_ylabel("% of fights")
            rounds.set_title(f"fight length (mean {summary.mean_rounds:.2f} rounds)")
            figure.suptitle(
                f"{summary.system}: {summary.fights:,} fights, seed {summary.seed}, "
                f"policies {summary.policies['pc']} / {summary.policies['npc']}"
            )
            figure.tight_layout()
            figure.savefig(target, format="png")
        except (OSError, ValueError) as error:
            raise SaikoroError(
                Message(f"{target} に書き込めません: {error}", f"cannot write {target}: {error}"),
                reason="cannot write plot",
            ) from None
        finally:
            plt.close(figure)
    return target
