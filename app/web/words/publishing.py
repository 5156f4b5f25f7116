"""The words of posts, channels and their settings as the console names them (zh, en)."""

from __future__ import annotations

POST_KINDS: dict[str, tuple[str, str]] = {
    "game_started": ("开局", "Game start"),
    "phase_opened": ("新阶段", "Phase opened"),
    "deployments_revealed": ("部署公开", "Deployments revealed"),
    "round_result": ("回合结果", "Round result"),
    "daily_report": ("每日报告", "Daily report"),
    "pk_result": ("PK 结果", "PK result"),
    "game_finished": ("终局", "Game over"),
    "receipts": ("密封回执", "Sealed-order receipts"),
    "reminder": ("截止提醒", "Reminder"),
    "tally": ("统计", "Tally"),
    "notice": ("公告", "Notice"),
    "signup_list": ("报名名单", "Sign-up list"),
    "events": ("动态", "Events"),  # the plain post of a game without post builders of its own
}

# Channel kinds: their name and where their config comes from (README "Channels").
CHANNEL_KINDS: dict[str, tuple[str, str]] = {
    "webhook": ("Webhook（签名的 JSON）", "Webhook (signed JSON)"),
    "misago": ("Misago 论坛", "Misago forum"),
    "discourse": ("Discourse 论坛", "Discourse forum"),
    "discord": ("Discord", "Discord"),
    "telegram": ("Telegram", "Telegram"),
    "onebot": ("QQ 群（OneBot v11）", "QQ group (OneBot v11)"),
    "manual": ("手动（NGA、S1、贴吧等）", "By hand (NGA, S1, Tieba…)"),
}
CHANNEL_HELP: dict[str, tuple[str, str]] = {
    "webhook": (
        "按 Standard Webhooks 签名的 POST 请求；密钥形如 `whsec_…`",
        "A POST signed per Standard Webhooks; the secret looks like `whsec_…`",
    ),
    "misago": (
        "机器人账号需设为版主；填帖子编号，或版块编号（首帖开新帖）。",
        "Make the bot account a moderator; give the thread's id, or a category's to open one.",
    ),
    "discourse": (
        "管理 → API → 新建密钥（单用户、权限 `topics: write`）；填主题编号或分类编号。",
        "Admin → API → New key (single user, `topics: write`); a topic id or a category id.",
    ),
    "discord": (
        "频道设置 → 整合 → Webhook → 复制 Webhook 地址（地址即密钥）。",
        "Channel settings → Integrations → Webhooks → Copy Webhook URL (the URL is the secret).",
    ),
    "telegram": (
        "用 `@BotFather` 建机器人并拉进群；群组编号形如 `-100…` 或 `@频道名`。",
        "Make a bot with `@BotFather` and add it to the chat; the chat id is `-100…` or `@channel`.",
    ),
    "onebot": (
        "OneBot v11 实现（NapCat、LLOneBot 等）的 HTTP API 地址和群号。",
        "The HTTP API address of a OneBot v11 implementation (NapCat, LLOneBot…) and the group.",
    ),
    "manual": (
        "不自动发送：导演复制帖子发到论坛，再登记链接。",
        "Nothing is sent: you copy each post to the forum and record its link.",
    ),
}
CONFIG_LABELS: dict[str, tuple[str, str]] = {
    "url": ("接收地址（URL）", "Receiver URL"),
    "secret": ("签名密钥", "Signing secret"),
    "base_url": ("论坛地址", "Forum address"),
    "username": ("机器人用户名", "Bot user name"),
    "password": ("机器人密码", "Bot password"),
    "thread_id": ("帖子编号", "Thread id"),
    "category_id": ("版块编号", "Category id"),
    "api_key": ("API 密钥", "API key"),
    "api_username": ("API 用户名", "API user name"),
    "topic_id": ("主题编号", "Topic id"),
    "follow_title": ("帖子标题随游戏进展更新", "Rename the thread as the game moves on"),
    "webhook_url": ("Webhook 地址", "Webhook URL"),
    "bot_token": ("机器人令牌", "Bot token"),
    "chat_id": ("群组编号（`chat_id`）", "Chat id (`chat_id`)"),
    "api_base": ("API 地址（可选）", "API address (optional)"),
    "message_thread_id": ("话题编号（可选）", "Topic id (optional)"),
    "access_token": ("访问令牌（`access_token`，可选）", "Access token (`access_token`, optional)"),
    "group_id": ("群号", "Group number"),
}
