from tableassist.cli import main

raise SystemExit(main())
