"""``python -m formscript.schemas [--check] [DIRECTORY]``: write or check the JSON Schemas."""

from formscript.schemas import main

raise SystemExit(main())
