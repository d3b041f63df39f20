from tui_reader.cli import main

raise SystemExit(main())
