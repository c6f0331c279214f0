"""Allow ``python -m formscript``."""

from formscript.cli import main

raise SystemExit(main())
