"""The command line: contract, output, commands, terminals, the README's tour."""
