"""The two parts of the build that pyproject.toml cannot state (everything else is there).

- The examples ship inside the package. They live once, in the repository's `examples/` folder, where the README,
  the tests and the benchmarks name them; building the wheel copies that folder in as `tohit/examples/`. An
  installed tohit reads them there, a checkout (an editable install, or `src/` on the path) reads `examples/`
  itself (`tohit.bundled`). A copy at build time keeps the editable install a plain path to `src/`, as before.
- The description a package index shows is the README with its pictures and its links to other files of the
  repository turned into text: an index page has no repository beside it for relative links to reach, and the
  project declares no host whose absolute addresses would stay true. The pictures' captions stay; the pictures
  are in the source distribution (docs/).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent

#: `![alt](path)`, a picture of the repository (an absolute http(s) address is left alone).
PICTURE = re.compile(r"!\[([^\]]*)\]\((?!https?://)([^)\s]+)\)")
#: `[text](path)`, a link to another file of the repository (not an anchor, not an absolute address).
FILE_LINK = re.compile(r"(?<!!)\[([^\]]+)\]\((?!https?://|#|mailto:)([^)\s]+)\)")


def index_readme(text: str) -> str:
    """The README as a package index shows it: pictures and links to the repository's files as plain text."""
    text = PICTURE.sub(lambda m: f"*(picture: {m.group(1)}; `{m.group(2)}` in the source distribution)*", text)
    return FILE_LINK.sub(lambda m: f"{m.group(1)} (`{m.group(2)}`)", text)


class BuildWithExamples(build_py):
    """`build_py`, then every file of `examples/` copied in as `tohit/examples/` (not for an editable install,
    which reads the checkout's folder)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        source = ROOT / "examples"
        target = Path(self.build_lib) / "tohit" / "examples"
        for path in sorted(source.rglob("*")):
            relative = path.relative_to(source)
            if path.is_file() and not any(p.startswith(".") or p == "__pycache__" for p in relative.parts):
                (target / relative).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, target / relative)


setup(
    cmdclass={"build_py": BuildWithExamples},
    long_description=index_readme((ROOT / "README.md").read_text(encoding="utf-8")),
    long_description_content_type="text/markdown",
)
