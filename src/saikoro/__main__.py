from saikoro.cli import run_cli

if __name__ == "__main__":  # not when a worker process imports it
    run_cli()
