/** The docs module's public surface: what other modules and the wiring may use. */
