import sys

from throng.cli import main

sys.exit(main())
