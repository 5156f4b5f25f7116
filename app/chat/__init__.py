"""Chat bots (Telegram, Discord, QQ through OneBot v11): hidden orders by private message,
and each player's own reminders and private results sent to their private chat."""
