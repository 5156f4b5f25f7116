"""The console's words for the director's safety net: previews, undo, the sandbox."""

from __future__ import annotations

SAFETY_WORDS: dict[str, tuple[str, str]] = {
    "will_do": ("将执行：{what}", "Will do: {what}"),
    "will_undo": ("将撤销：{what}", "Will undo: {what}"),
    "undo": ("撤销结算", "Undo a resolution"),
    "undo_hint": (
        "把游戏退回到所选结算之前：被结算的指令重新变为待结算（玩家可修改），截止时间恢复为当时剩余的时间。"
        "被撤销的步骤保留在记录里；撤销会公开发帖说明原因，重新结算会重新掷骰。",
        "Puts the game back to before the chosen resolutions: the orders they consumed are "
        "pending again (players may revise them), the deadline gets the time it had left. "
        "The undone steps stay in the record; the undo is posted in public with its reason, "
        "and resolving again rolls new dice.",
    ),
    "undo_steps": ("撤销最近几次结算", "How many of the latest resolutions"),
    "undo_reason": ("原因（公开）", "Reason (public)"),
    "undo_deadline": ("新的截止时间（分钟后，可空）", "New deadline in minutes (optional)"),
    "undo_left": ("本局还可撤销 {n} 次（上限 {limit} 次）。", "{n} of {limit} undos left."),
    "undo_none_left": (
        "本局不能再撤销（上限 {limit} 次）。",
        "No undo is left in this game (limit {limit}).",
    ),
    "undo_disabled_note": ("本局设置不允许撤销。", "Undo is disabled in this game."),
    "undo_nothing": ("还没有可以撤销的结算。", "There is no resolution to undo yet."),
    "undo_recent": (
        "最近的结算（最新的在最上面；撤销几次就撤销最上面几条）",
        "Latest resolutions (newest first)",
    ),
    "undo_item": ("{n}. {what}（{at}）", "{n}. {what} ({at})"),
    "undo_what_timer": ("{what}", "{what}"),
    "undo_what_tool": ("导演操作：{what}", "Director's tool: {what}"),
    "undo_what_ready": ("全员就绪后的结算", "The close after everyone was ready"),
    "notice_undone": (
        "已撤销 {n} 次结算，并已公开更正。",
        "Undid {n} resolutions; the correction is public.",
    ),
    "audit_undo": ("撤销结算（原因：{reason}）", "Undid resolutions (reason: {reason})"),
    "sandbox": ("沙盘", "Sandbox"),
    "sandbox_hint": (
        "把本局此刻（或更早某一步之后）的局面复制成一个私人沙盘：同样的设置与玩家、新的种子、没有频道。"
        "在沙盘里可以代任何玩家下指令、试结算，正式游戏不受任何影响。",
        "Copies this game as it is now (or just after an earlier step) into a private "
        "sandbox: same settings and players, a new seed, no channels. There you can act as "
        "any player and try resolutions; the real game is not touched.",
    ),
    "sandbox_step": ("从第几步之后（可空：现在）", "After step (optional: now)"),
    "sandbox_create": ("创建沙盘", "Create a sandbox"),
    "sandbox_players": (
        "以玩家身份操作：用下面的邀请链接在另一个浏览器窗口打开（只给自己用）。",
        "Act as a player: open their invite link in another browser window (for you only).",
    ),
    "sandbox_origin": (
        "这个沙盘复制自正式游戏第 {step} 步之后的局面。",
        "This sandbox copies the real game as it was after step {step}.",
    ),
    "sandbox_back": ("回到正式游戏", "Back to the real game"),
    "sandbox_no_channels": (
        "沙盘不能发布，所以没有频道。",
        "A sandbox is never published, so it has no channels.",
    ),
    "sandbox_discard": ("丢弃沙盘", "Throw the sandbox away"),
    "sandbox_discard_hint": (
        "沙盘的一切都会删除；正式游戏不受影响。",
        "Everything of the sandbox is deleted; the real game is not touched.",
    ),
    "audit_fork": ("创建沙盘（自第 {step} 步之后）", "Created the sandbox (after step {step})"),
}
