from promote_cli.cli import main

main()
