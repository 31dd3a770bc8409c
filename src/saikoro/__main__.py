from saikoro.cli.main import main

main()
