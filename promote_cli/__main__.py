from promote_cli.entry import main

main()
