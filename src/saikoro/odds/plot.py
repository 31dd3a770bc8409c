"""A PNG bar chart of a command's odds (matplotlib, Agg backend, imported lazily)."""

from __future__ import annotations

from pathlib import Path

from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.odds.render import bins
from saikoro.odds.result import Odds


def write_plot(odds: Odds, path: str | Path) -> Path:
    """Write the distribution of ``odds`` and its flag chances to ``path`` (PNG)."""
    from saikoro.errors import require_extra

    require_extra("matplotlib", "plot", Message("グラフ (--plot)", "a plot (--plot)"))
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    target = Path(path)
    bars = bins(odds.distribution, max_bars=60)
    figure, axis = plt.subplots(figsize=(8, 4.5), dpi=120)
    try:
        if bars:
            labels = [label for label, _ in bars]
            heights = [100 * p for _, p in bars]
            axis.bar(range(len(bars)), heights, color="#4c72b0")
            step = max(1, len(labels) // 20)
            axis.set_xticks(range(0, len(labels), step))
            axis.set_xticklabels(labels[::step], rotation=45 if step > 1 else 0)
            axis.set_ylabel("probability (%)")
            axis.set_xlabel(odds.value_kind)
        else:
            axis.set_axis_off()
        kind = "exact" if odds.exact else f"Monte Carlo, n={odds.outcomes:,}"
        flags = "  ".join(
            f"{name} {100 * float(p):.1f}%"
            for name, p in (
                ("success", odds.success),
                ("critical", odds.critical),
                ("fumble", odds.fumble),
            )
        )
        mean = f"  mean {float(odds.mean):.2f}" if odds.mean is not None else ""
        axis.set_title(
            f"{_ascii_head(odds.command)} [{odds.system}] ({kind})\n{flags}{mean}", fontsize=11
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


def _ascii_head(command: str) -> str:
    """The command without its comment, half-width (the default font has no kana)."""
    from saikoro.dice.normalize import to_half_width

    words = to_half_width(command).split()
    return words[0] if words else command
