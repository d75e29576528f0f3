"""The screens of the application, one per module."""
