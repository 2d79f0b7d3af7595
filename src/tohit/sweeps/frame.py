"""The table `tohit.sweep` gives in Python: `SweepFrame`, a pandas DataFrame that knows what made it
(`attrs["tohit"]`, sweeps/provenance.py) and so can draw itself and take short names:

- `table.plot()` draws the chart `tohit sweep --plot` writes (a curve with its 95% band for one varied field, a
  heatmap for two, small multiples for three), `table.plot("win_Bandits")` another measure; it returns a `Chart`,
  which a notebook shows as an image (`.save("chart.png")` writes it, `.figure` is matplotlib's). Given pandas'
  own arguments (`kind=`, `x=`, `y=`...) or as `table.plot.line(...)`, it is pandas' plot, as on any DataFrame.
- `table["weapon.damage"]` is the column `attacker.weapon.damage`: a varied field's column may be named by the
  end of its path (whole dotted names) where one column alone ends so; `table.column(name)` says which.

Everything else is pandas', and a frame made from it (a filter, a sort) is a SweepFrame with the same record.
"""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path
from typing import Any

import pandas as pd
from pandas.plotting import PlotAccessor

from tohit.core.errors import InputError, short_repr
from tohit.sweeps.provenance import KEY


class Chart:
    """A sweep's chart: in a notebook an image (`_repr_html_`: the PNG inline, drawn once); `.save(path)` writes it
    as a PNG, `.figure` is the matplotlib `Figure`."""

    def __init__(self, figure: Any, title: str) -> None:
        self.figure = figure
        self.title = title
        self._png: bytes | None = None

    def png(self) -> bytes:
        """The chart as PNG bytes."""
        if self._png is None:
            buffer = io.BytesIO()
            self.figure.savefig(buffer, format="png", dpi=100)
            self._png = buffer.getvalue()
        return self._png

    def save(self, path: str | Path) -> None:
        """Write the chart to `path`, a PNG file."""
        from tohit.cli.plot import write_png

        write_png(Path(path), "path", lambda temporary: self.figure.savefig(temporary, format="png", dpi=100))

    def _repr_html_(self) -> str:
        data = base64.b64encode(self.png()).decode()
        return f'<img src="data:image/png;base64,{data}" alt="{html.escape(self.title)}"/>'

    def __repr__(self) -> str:
        return f"<Chart: {self.title}; .save(path), .figure>"


class SweepFrame(pd.DataFrame):  # type: ignore[misc]  # pandas has no type hints here
    """A sweep's table (see the module's docstring): pandas' DataFrame, with `plot()` and short column names."""

    @property
    def _constructor(self) -> type[SweepFrame]:
        return SweepFrame

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str) and key not in self.columns:
            key = self.column(key)
        elif isinstance(key, list):
            key = [self.column(k) if isinstance(k, str) and k not in self.columns else k for k in key]
        return super().__getitem__(key)

    def column(self, name: str) -> str:
        """The column `name` stands for: itself, or the one column whose path ends with `.name` (else `name`,
        which pandas then refuses as usual); a name that ends several is a KeyError naming them."""
        if name in self.columns:
            return name
        ending = [c for c in self.columns if isinstance(c, str) and c.endswith(f".{name}")]
        if len(ending) > 1:
            raise KeyError(f"{name!r} ends {len(ending)} columns ({', '.join(ending)}): write one in full")
        return str(ending[0]) if ending else name

    @property
    def plot(self) -> SweepPlot:
        return SweepPlot(self)


class SweepPlot:
    """`table.plot()`: the sweep's chart (a `Chart`); with pandas' arguments, or `table.plot.line(...)`, pandas'."""

    def __init__(self, frame: SweepFrame) -> None:
        self._frame = frame

    def __call__(self, measure: str | None = None, **pandas: Any) -> Any:
        if pandas:
            return PlotAccessor(self._frame)(**({"y": measure} if measure else {}), **pandas)
        return chart(self._frame, measure)

    def __getattr__(self, name: str) -> Any:
        return getattr(PlotAccessor(self._frame), name)


def chart(data: pd.DataFrame, measure: str | None = None) -> Chart:
    """The chart of a sweep's table from the table and its record alone (the fields varied and the input)."""
    from tohit.core.loader import parse_document
    from tohit.sweeps.grid import kind_of
    from tohit.sweeps.plot import sweep_figure
    from tohit.sweeps.spec import parse_varies

    made_by = data.attrs.get(KEY)
    if not isinstance(made_by, dict) or not isinstance(made_by.get("input_text"), str):
        raise InputError("this table keeps no record of its sweep (attrs['tohit']) to draw it from", field="plot")
    name = str(made_by.get("input", "<sweep>"))
    document = parse_document(made_by["input_text"], source=name, json_only=name.lower().endswith(".json"))
    varies = parse_varies(list(made_by.get("vary", [])))
    if measure is not None and measure not in data.columns:
        raise InputError(f"no measure {short_repr(measure)} in this table", field="measure")
    title = Path(name).name
    figure = sweep_figure(data, varies, document, kind_of(document), measure=measure, title=title)
    return Chart(figure, f"{title}: {measure or 'the default measure'}")


def sweep_frame(data: pd.DataFrame) -> SweepFrame:
    """`data` as a SweepFrame, with its record."""
    out = SweepFrame(data)
    out.attrs = dict(data.attrs)
    return out
