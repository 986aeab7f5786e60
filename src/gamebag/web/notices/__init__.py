"""The notices room: "your move" wherever you are (the list, browser notifications, e-mail)."""
