"""Files shipped with the core: the documented sample config."""
