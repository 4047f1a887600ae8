"""Play by e-mail: packets, the host and replicas, mail in and out, lying hosts."""
