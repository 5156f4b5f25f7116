"""Every string a player reads on the pages: one catalogue, Chinese first, English too.

Templates call ``t("key", **fields)``; event lines in the feeds come from
:func:`describe_event`. Rule-engine refusals already carry both languages
(``message_zh`` / ``message_en``) and are shown as they are.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from typing import Any

from app.errors import prefers_english
from app.kit.pages import DEFAULT_PAGES, Pages, number, number_text, readable
from app.kit.pages import order_name as kit_order_name
from app.kit.words import Words
from app.kit.words import pick as kit_pick
from app.rules.registry import all_rulesets, get_presentation

__all__ = ["number_text"]

LANGS = ("zh", "en")
LANG_COOKIE = "fp_lang"

UI: dict[str, tuple[str, str]] = {
    # frame
    "brand": ("论坛戏", "forumplay"),
    "switch_lang": ("English", "中文"),
    "skip_to_main": ("跳到正文", "Skip to content"),
    "home": ("首页", "Home"),
    "games": ("公开的游戏", "Public games"),
    "no_games": ("还没有游戏。", "No games yet."),
    "new_game": ("创建游戏（导演）", "Create a game (director)"),
    "status_setup": ("准备中", "Setting up"),
    "status_running": ("进行中", "Running"),
    "status_paused": ("已暂停", "Paused"),
    "status_finished": ("已结束", "Finished"),
    "players_count": ("{n} 名玩家", "{n} players"),
    "created": ("创建于 {at}", "created {at}"),
    "watch": ("观战", "Watch"),
    "live": ("实时", "live"),
    "live_off": ("实时更新已断开，正在重连…", "Live updates lost; reconnecting…"),
    # time
    "deadline": ("截止", "Deadline"),
    "no_deadline": ("无截止时间（由导演结束）", "No deadline (the director closes it)"),
    "time_left": ("剩余", "Time left"),
    "paused_clock": ("时钟已暂停，剩余 {left}", "Clock paused, {left} left"),
    "timezone": ("时区 {tz}", "time zone {tz}"),
    # phases
    "round_n": ("第 {n} 回合", "Round {n}"),
    "day_n": ("第 {n} 天", "Day {n}"),
    # team battle board
    "you_play_plain": ("你是 {name}", "You are {name}"),
    "hidden": ("未公开", "hidden"),
    "winner_is": ("胜者：{side}", "Winner: {side}"),
    "draw": ("平局", "Draw"),
    "none": ("无", "none"),
    # orders
    "orders": ("指令", "Orders"),
    "your_orders_plain": ("你的待结算指令", "Your standing orders"),
    "no_orders": ("还没有指令。", "No orders yet."),
    "give_order": ("下达指令", "Give an order"),
    "submit": ("提交", "Submit"),
    "revise": ("修改", "Revise"),
    "save": ("保存", "Save"),
    "withdraw": ("撤回", "Withdraw"),
    "ready": ("本阶段完成（就绪）", "Done for this phase (ready)"),
    "ready_hint": (
        "双方都就绪时，本阶段提前结束。",
        "The phase closes early once every side is ready.",
    ),
    "unavailable": ("现在不能使用", "Not available now"),
    "unavailable_n": ("现在不能使用的指令（{n}）", "Orders you cannot give now ({n})"),
    "nothing_to_order": ("现在没有可以下达的指令。", "There is no order you can give now."),
    "status": ("状态", "Status"),
    "order_status_pending": ("待结算", "pending"),
    "order_status_resolved": ("已生效", "resolved"),
    "order_status_withdrawn": ("已撤回", "withdrawn"),
    "order_status_void": ("无效", "void"),
    "order_status_nullified": ("被识破", "seen through"),
    "order_status_replaced": ("已替换", "replaced"),
    "order_status_held": ("挂起", "held"),
    "order_saved": ("指令已提交。", "Order submitted."),
    "order_revised": ("指令已修改。", "Order revised."),
    "order_withdrawn": ("指令已撤回。", "Order withdrawn."),
    "ready_saved": ("已标记为就绪。", "Marked ready."),
    "count": ("数量", "Count"),
    "all": ("全部", "all"),
    "choose": ("请选择", "Choose"),
    "optional": ("可选", "optional"),
    "text_order": ("用文字写指令", "Write your order in words"),
    "text_order_hint_plain": ("一行写一条指令", "One order per line"),
    "parse": ("解析", "Read it"),
    # odds
    "odds": ("胜算预估", "What may happen this round"),
    "game_over_note": ("游戏已结束。", "The game is over."),
    "odds_preview": ("预估", "Preview"),
    # a map, a player's numbers
    "alive": ("存活", "Alive"),
    "dead": ("已死亡", "Dead"),
    "you_are_dead": ("你已经死亡，仍可以继续观看。", "You are dead; you may still watch."),
    "target": ("目标", "Target"),
    "targets": ("目标", "Targets"),
    "result": ("结果", "Result"),
    # --- feed, boards and order forms (issue 16) ---
    "private_to": ("致 {names}：", "To {names}: "),
    # events
    "events": ("动态", "Events"),
    "no_events": ("暂无动态。", "Nothing yet."),
    "seed": ("随机种子", "Seed"),
    "seed_commitment": ("种子承诺（SHA-256）", "Seed commitment (SHA-256)"),
    "seed_hidden": ("游戏结束后公开", "revealed when the game ends"),
    "verify": ("验证全部骰子", "Verify every roll"),
    "verify_ok": (
        "验证通过：重放 {steps} 步，结果一致。",
        "Verified: {steps} steps replayed, all identical.",
    ),
    "verify_bad": ("验证失败：{n} 处不一致。", "Verification failed: {n} mismatches."),
    # join
    "join_title": ("加入游戏", "Join the game"),
    "join_text": (
        "你被邀请以 {name} 的身份参加《{title}》。",
        "You are invited to play {name} in “{title}”.",
    ),
    "join_confirm": ("确认加入", "Join"),
    "join_note": (
        "链接只能使用一次：确认后，本浏览器即登录为该玩家。",
        "The link works once: joining signs this browser in as that player.",
    ),
    "invite_invalid": (
        "邀请链接无效或已被使用。请向导演索取新的链接。",
        "This invite link is invalid or has already been used. Ask the director for a new one.",
    ),
    "error": ("出错了", "Something went wrong"),
    "back": ("返回", "Back"),
    "not_found": ("找不到该页面或游戏。", "No such page or game."),
    # --- player pages (issue 16) ---
    "not_started": (
        "游戏还没有开始。导演开始游戏后，这里会显示你的状态和可以下达的指令。",
        "The game has not started yet. Once the director starts it, your standing and "
        "the orders you can give appear here.",
    ),
    "roster_so_far": ("已在名单上的玩家", "Players on the roster so far"),
    "signed_out_title": (
        "你没有以玩家身份登录这局游戏",
        "You are not signed in as a player of this game",
    ),
    "signed_out_none": (
        "这台设备（这个浏览器）还没有以玩家身份登录《{title}》。",
        "This device (this browser) is not signed in as a player of “{title}”.",
    ),
    "signed_out_ended": (
        "你在这台设备上的登录已经失效：导演可能让你退出了登录，或把你的位置交给了别人。",
        "Your sign-in on this device has ended: the director may have signed you out, or "
        "given your place to someone else.",
    ),
    "signed_out_director": (
        "这台设备登录的是导演身份，不是玩家。",
        "This device is signed in as the director, not as a player.",
    ),
    "signed_out_how": (
        "要回到游戏，请向导演要一个新的邀请链接，打开后点“确认加入”。",
        "To get back in, ask the director for a new invite link, open it and press “Join”.",
    ),
    "signed_out_console": ("打开导演台", "Open the director's console"),
    "watch_as_spectator": ("先以观众身份观看", "Watch as a spectator meanwhile"),
    "spectator_page": ("观众页面", "Spectator page"),
    "verify_from_player": (
        "种子已公开：在观众页面核对整局的骰子",
        "The seed is revealed: check the whole game's dice on the spectator page",
    ),
    "read_back": ("先读一遍", "Read back first"),
    "read_as": ("读作：{echo}", "Read as: {echo}"),
    "read_nothing_sent": (
        "只是读了一遍，还没有提交。",
        "Only read back; nothing was submitted.",
    ),
    "outcome": ("结果", "Outcome"),
    "changed_to": ("{label}：{old} → {new}", "{label}: {old} → {new}"),
    # director
    "director": ("导演台", "Director's console"),
    "director_login": ("导演登录", "Director sign-in"),
    "director_token": ("导演令牌", "Director token"),
    "login": ("登录", "Sign in"),
    "logout": ("退出", "Sign out"),
    "login_hint": (
        "输入创建游戏时显示的导演令牌。",
        "Enter the director token shown when the game was created.",
    ),
    "create_title": ("创建游戏", "Create a game"),
    "ruleset": ("游戏类型", "Game"),
    "title": ("标题", "Title"),
    "timezone_field": ("时区", "Time zone"),
    "scenario": ("剧本文件（JSON 或 YAML）", "Scenario file (JSON or YAML)"),
    "scenario_roster_hint": (
        "开始时人数须在剧本可容纳的范围内（IS-4）；剧本为缺席玩家预留的起始位置不使用，"
        "未列出起始位置的玩家由种子随机分到空格。",
        "At the start the roster must be within what the scenario takes (IS-4); start "
        "positions of absent players are unused, and players without one are placed on free "
        "cells drawn from the seed.",
    ),
    "settings": ("设置", "Settings"),
    "advanced_settings": ("全部设置", "All settings"),
    "create": ("创建", "Create"),
    "created_title": ("游戏已创建", "Game created"),
    "token_once": (
        "这是导演令牌，只显示这一次，请妥善保存（本浏览器已登录）：",
        "This is the director token. It is shown once; keep it safe (this browser is signed in):",
    ),
    "to_console": ("进入导演台", "Open the console"),
    "controls": ("控制", "Controls"),
    "start": ("开始游戏", "Start the game"),
    "pause": ("暂停", "Pause"),
    "resume": ("继续", "Resume"),
    "advance": ("立即结束当前阶段", "Close the current phase now"),
    "extend": ("延长截止时间", "Extend the deadline"),
    "minutes": ("分钟", "minutes"),
    "roster": ("玩家", "Players"),
    "add_player": ("添加玩家", "Add a player"),
    "name": ("名字", "Name"),
    "forum_name": ("论坛名", "Forum name"),
    "side": ("阵营", "Side"),
    "invite": ("生成邀请链接", "Make an invite link"),
    "invite_new": (
        "新的邀请链接（只显示一次，只能用一次）：",
        "New invite link (shown once, works once):",
    ),
    "invite_out": ("有未使用的邀请", "invite not yet used"),
    "sessions_n": ("{n} 个登录", "{n} signed in"),
    "replace": ("替换玩家", "Replace player"),
    "replace_hint": (
        "新玩家接手该席位：历史保留，旧玩家的令牌和登录全部失效。",
        "A new person takes the seat: history stays; the old token and sessions stop working.",
    ),
    "replaced_token": (
        "已替换。新令牌（只显示一次）：",
        "Replaced. New token (shown once):",
    ),
    "revoke": ("注销其登录", "Sign out everywhere"),
    "revoked": ("已注销 {n} 个登录。", "{n} sessions signed out."),
    "full_view": ("全局视图", "Full view"),
    "all_orders": ("全部指令", "All orders"),
    "audit": ("操作记录", "Audit log"),
    "no_audit": ("暂无记录。", "Nothing yet."),
    "tools": ("导演工具", "Director tools"),
    "apply": ("执行", "Apply"),
    "done": ("已完成。", "Done."),
    "story_queue": ("剧情队列", "Story queue"),
    "resolve_story": ("结算剧情", "Resolve the story"),
    "story_text": ("剧情文字", "Story text"),
    "player": ("玩家", "Player"),
    "delta": ("变化量", "Change"),
    "x": ("x（列）", "x (column)"),
    "y": ("y（行）", "y (row)"),
    "text": ("文字", "Text"),
    "faction": ("阵营", "Faction"),
    "forbid": ("禁止", "forbid"),
    "cause": ("原因", "Cause"),
    "side_short": ("方", "side"),
    "slot": ("格子", "Slot"),
    "commander": ("指挥官", "Commander"),
    "forum_name_hint": (
        "玩家在论坛上的用户名：提醒帖会点名（Misago、Discourse 上为 @名字）。",
        "The player's user name on the forum: reminders name them (@name on Misago, Discourse).",
    ),
    "forum_name_saved": ("论坛名已保存。", "Forum name saved."),
    # --- the director's console (issue 16) ---
    "list_sep": ("、", ", "),
    "audit_paren": ("（{text}）", " ({text})"),
    "audit_by_director": ("导演", "director"),
    "audit_by_admin": ("管理员", "admin"),
    "audit_someone": ("某位玩家", "a player"),
    "audit_a_post": ("一个帖子", "a post"),
    "audit_a_channel": ("一个已移除的频道", "a removed channel"),
    "audit_yes": ("是", "yes"),
    "audit_no": ("否", "no"),
    "audit_off": ("关闭", "off"),
    "audit_other": ("其他导演操作", "another director action"),
    "audit_forum_is": ("论坛名 {name}", "forum name {name}"),
    "audit_add_player": ("添加玩家 {name}", "Added player {name}"),
    "audit_invite": ("为 {name} 生成邀请链接", "Made an invite link for {name}"),
    "audit_revoke_sessions": ("注销 {name} 的所有登录", "Signed {name} out everywhere"),
    "audit_replace_player": ("替换玩家 {name}（旧令牌失效）", "Replaced {name} (old token void)"),
    "audit_set_forum_name": ("{name} 的论坛名改为 {forum}", "Set {name}'s forum name to {forum}"),
    "audit_clear_forum_name": ("清除 {name} 的论坛名", "Cleared {name}'s forum name"),
    "audit_start": ("开始游戏", "Started the game"),
    "audit_pause": ("暂停游戏", "Paused the game"),
    "audit_archive_game": (
        "归档游戏（不再列出，记录保留）",
        "Archived the game (unlisted, record kept)",
    ),
    "audit_resume": ("继续游戏", "Resumed the game"),
    "audit_advance": ("立即结束当前阶段，运行了：{what}", "Closed the phase now: ran {what}"),
    "audit_advance_to_midnight": (
        "结算到 24:00，依次运行了：{what}",
        "Ran to 24:00: {what}, in order",
    ),
    "audit_extend": ("截止时间延长 {n} 分钟", "Extended the deadline by {n} minutes"),
    "audit_new_deadline": ("新截止时间 {at}", "now due {at}"),
    "audit_set_publishing": ("修改发帖设置", "Changed the publishing settings"),
    "audit_set_reminders": (
        "截止提醒：截止前 {times} 分钟，发到{where}",
        "Deadline reminders: {times} minutes before, to {where}",
    ),
    "audit_set_reminders_off": ("关闭截止提醒", "Turned deadline reminders off"),
    "audit_set_tally": (
        "统计帖：截止前 {times} 分钟，发到{where}",
        "Tallies: {times} minutes before, to {where}",
    ),
    "audit_set_tally_off": ("关闭统计帖", "Turned tallies off"),
    "audit_post_tally": ("发布统计帖「{post}」", "Posted the tally “{post}”"),
    "audit_add_channel": ("添加频道 {name}（{kind}）", "Added the channel {name} ({kind})"),
    "audit_remove_channel": ("移除频道 {name}", "Removed the channel {name}"),
    "audit_edit_post": ("编辑帖子「{post}」", "Edited the post “{post}”"),
    "audit_approve_post": ("批准帖子「{post}」", "Approved the post “{post}”"),
    "audit_approve_all": (
        "批准全部待审帖子（{n} 帖）",
        "Approved every post awaiting review ({n})",
    ),
    "audit_discard_post": ("弃用帖子「{post}」", "Discarded the post “{post}”"),
    "audit_discard_deliveries": (
        "放弃帖子「{post}」的失败投递",
        "Gave up the failed deliveries of “{post}”",
    ),
    "audit_retry_post": ("重新发送帖子「{post}」", "Sent “{post}” again"),
    "audit_mark_posted": ("登记帖子「{post}」的链接", "Recorded the link of “{post}”"),
    "audit_set_forum": ("设置论坛帖子下令", "Set up orders from the forum thread"),
    "ran_monster_check": ("{time} 的野兽检定", "the {time} beast check"),
    "ran_midnight": ("24:00 结算", "the 24:00 settlement"),
    "ran_pk": ("一场 PK 的结算", "a PK's resolution"),
    "ran_phase": ("第 {n} 回合{phase}的截止", "the close of round {n}'s {phase}"),
    "ran_phase_only": ("{phase}的截止", "the close of the {phase}"),
    "ran_timer": ("一个计时", "a timer"),
    "ran_nothing": ("没有要运行的计时", "no timer"),
    "ran_close_phase": ("结束当前阶段", "the close of the current phase"),
    "advance_to_midnight": ("结算到下一个 24:00", "Run to the next 24:00"),
    "advance_to_midnight_hint": (
        "依次运行到下一个 24:00 为止的全部计时（野兽检定、PK 与 24:00 结算），如同时间已到。不可撤销。",
        "Runs every timer up to and including the next 24:00 (beast checks, PKs, the 24:00 "
        "settlement), in order, as if the time had come. Cannot be undone.",
    ),
    "advance_hint": (
        "立即运行下一个计时：{what}。不可撤销。",
        "Runs the next timer now: {what}. Cannot be undone.",
    ),
    "advance_hint_untimed": (
        "这个阶段不限时：立即结束它。不可撤销。",
        "This phase has no time limit: closes it now. Cannot be undone.",
    ),
    "start_hint": (
        "开始后不能再添加玩家，也不能更改设置。",
        "Once started, no player can be added and no setting changed.",
    ),
    "confirm_check": ("我确认，此操作不可撤销", "I am sure: this cannot be undone"),
    "confirm_needed": (
        "请先勾选确认框：此操作不可撤销。",
        "Tick the confirmation box first: this cannot be undone.",
    ),
    "notice_ran": ("已运行：{what}。", "Ran {what}."),
    "notice_ran_to_midnight": (
        "已结算到 24:00，依次运行了：{what}。",
        "Ran to 24:00: {what}, in order.",
    ),
    "notice_started": ("游戏已开始。", "The game has started."),
    "notice_paused": ("游戏已暂停，所有计时停止。", "The game is paused; every clock has stopped."),
    "notice_resumed": ("游戏已继续，计时恢复。", "The game goes on; the clocks run again."),
    "notice_extended": (
        "截止时间已延长 {n} 分钟，新截止时间 {at}。",
        "The deadline is {n} minutes later: now {at}.",
    ),
    "notice_extended_paused": (
        "截止时间已延长 {n} 分钟（游戏暂停中）。",
        "The deadline is {n} minutes later (the game is paused).",
    ),
    "notice_tool": ("已执行：{what}。", "Done: {what}."),
    "notice_story": ("剧情已结算。", "The story is resolved."),
    "notice_approved": (
        "已批准「{title}」，开始发布。",
        "Approved “{title}”: it is being published.",
    ),
    "notice_approved_all": (
        "已批准全部 {n} 个待审帖子，按顺序发布。",
        "Approved all {n} posts awaiting review; they go out in order.",
    ),
    "notice_none_to_approve": ("没有待审的帖子。", "No post is awaiting review."),
    "notice_discarded": ("已弃用「{title}」。", "Discarded “{title}”."),
    "notice_gave_up": (
        "已放弃「{title}」的失败投递。",
        "Gave up the failed deliveries of “{title}”.",
    ),
    "notice_retried": ("「{title}」将重新发送。", "“{title}” will be sent again."),
    "notice_edited": ("「{title}」已保存。", "“{title}” is saved."),
    "notice_marked": ("已登记「{title}」的链接。", "Recorded the link of “{title}”."),
    "notice_channel_removed": ("频道「{name}」已移除。", "The channel “{name}” is removed."),
    "notice_channel_added": ("频道「{name}」已添加。", "The channel “{name}” is added."),
    "notice_forum_name": ("{name} 的论坛名已保存。", "{name}'s forum name is saved."),
    "notice_logged_in": ("已登录导演台。", "Signed in to the console."),
    "approve_all": ("全部批准（{n} 帖）", "Approve all ({n})"),
    "approve_all_hint": (
        "按顺序批准并发布下面所有待审帖子。",
        "Approves and publishes every post below, in order.",
    ),
    "preview": ("预览", "Preview"),
    "preview_hint": (
        "读者看到的样子（纯文本版本）",
        "As a reader sees it (the plain-text version)",
    ),
    "show_post": ("展开帖子", "Show the post"),
    "copy_token": ("复制令牌", "Copy the token"),
    "console_link": ("导演台地址（用令牌登录）", "The console's address (sign in with the token)"),
    "copy_link": ("复制链接", "Copy the link"),
    "token_shown_already": (
        "导演令牌只显示一次，已经显示过了。本浏览器仍已登录导演台；令牌丢失时，无法找回。",
        "The director token is shown once, and it has been. This browser is still signed in "
        "to the console; a lost token cannot be shown again.",
    ),
    "delete_game": ("删除游戏", "Delete the game"),
    "delete_game_hint": (
        "删除这局游戏的全部内容：玩家、指令、记录、帖子与频道。所有链接随即失效，无法恢复。",
        "Deletes everything of this game: players, orders, the record, posts and channels. "
        "Every link stops working; nothing can bring it back.",
    ),
    "archive_game": ("归档游戏", "Archive the game"),
    "archive_game_hint": (
        "归档后，这局游戏不再出现在首页的列表里；观战页、记录与复核照旧可用，链接不变。",
        "Archived, the game is no longer listed on the home page; its spectator page, record "
        "and verification stay as they are, at the same links.",
    ),
    "delete_running_hint": (
        "游戏进行中不能删除。结束后可以归档（不再列出，记录保留）。",
        "A game under way cannot be deleted. Once it is over it can be archived (unlisted, "
        "record kept).",
    ),
    "game_deleted": ("游戏「{title}」已删除。", "The game “{title}” is deleted."),
    "game_archived": (
        "游戏「{title}」已归档：不再列出，记录保留。",
        "The game “{title}” is archived: unlisted, its record kept.",
    ),
    "minutes_unit": ("分钟", "minutes"),
    "hours_unit": ("小时", "hours"),
    "no_limit": ("不限时", "no time limit"),
    "admin_token_label": ("管理员令牌", "Admin token"),
    "duration_unit": ("时长单位", "unit"),
    "duration_hint": (
        "留空表示不限时，由导演手动结束阶段。",
        "Leave empty for no time limit (the director closes the phase).",
    ),
    # publishing
    "publishing": ("发帖", "Publishing"),
    "review_queue": ("待审帖子", "Posts awaiting review"),
    "no_review": ("没有待审的帖子。", "No post is awaiting review."),
    "review_off_note": (
        "审核已关闭：帖子生成后立即发布。",
        "Review is off: posts are published as soon as they are made.",
    ),
    "post_n": ("第 {n} 帖", "Post {n}"),
    "made_at": ("生成于 {at}", "made {at}"),
    "auto_publish_at": ("无人处理则于 {at} 自动发布", "publishes itself at {at} unless acted on"),
    "approve": ("批准发布", "Approve and publish"),
    "discard": ("弃用", "Discard"),
    "discard_hint": (
        "弃用后这个帖子不会发布到任何频道。",
        "A discarded post is never published anywhere.",
    ),
    "edit": ("编辑", "Edit"),
    "post_title": ("标题", "Title"),
    "body_bbcode": ("BBCode", "BBCode"),
    "body_markdown": ("Markdown", "Markdown"),
    "body_text": ("纯文本", "Plain text"),
    "format_bbcode": ("BBCode（Discuz!、NGA、S1、phpBB）", "BBCode (Discuz!, NGA, S1, phpBB)"),
    "format_markdown": ("Markdown（Discourse、Misago）", "Markdown (Discourse, Misago)"),
    "format_text": ("纯文本（QQ、Telegram、Discord）", "Plain text (QQ, Telegram, Discord)"),
    "copy": ("复制", "Copy"),
    "post_content": ("帖子内容", "The post"),
    "copied": ("已复制", "Copied"),
    "posts": ("已发布的帖子", "Published posts"),
    "posts_shown": (
        "显示最近的帖子和所有需要处理的帖子（共 {n} 帖）。",
        "The newest posts and every one that needs you ({n} in all).",
    ),
    "no_posts": ("还没有帖子。", "No posts yet."),
    "post_status_awaiting_review": ("待审", "awaiting review"),
    "post_status_published": ("已发布", "published"),
    "post_status_discarded": ("已弃用", "discarded"),
    "published_at": ("发布于 {at}", "published {at}"),
    "no_channels_note": (
        "还没有频道：帖子只保存在这里。",
        "No channel yet: posts are only kept here.",
    ),
    "delivery_pending": ("等待发送", "waiting to be sent"),
    "delivery_sending": ("发送中", "sending"),
    "delivery_sent": ("已送达", "delivered"),
    "delivery_failed": ("发送失败", "failed"),
    "delivery_manual": ("待手动发布", "to post by hand"),
    "delivery_discarded": ("已放弃", "given up"),
    "next_attempt": ("下次尝试 {at}", "next attempt {at}"),
    "attempts_n": ("已尝试 {n} 次", "{n} attempts"),
    "open_link": ("查看帖子", "Open the post"),
    "retry": ("重新发送失败的投递", "Send the failed deliveries again"),
    "give_up": ("放弃失败的投递", "Give up the failed deliveries"),
    "give_up_hint": (
        "放弃后，这个频道的后续帖子不再被它阻塞。",
        "Once given up, it no longer holds back the channel's later posts.",
    ),
    "manual_hint": (
        "复制下面的内容，发到论坛，再把帖子链接填在这里。",
        "Copy the text below, post it on the forum, then give the post's link here.",
    ),
    "posted_url": ("帖子链接", "Link to the post"),
    "record_url": ("登记链接", "Record the link"),
    "mark_posted_hint": (
        "已经手动发过了？登记链接即可（不再自动发送）。",
        "Posted it by hand? Record the link (it will not be sent again).",
    ),
    "removed_channel": ("已移除的频道", "a removed channel"),
    "publishing_settings": ("发帖设置", "Publishing settings"),
    "review": ("发布前审核", "Review before publishing"),
    "review_always": ("每帖审核（导演批准后发布）", "Always (published once you approve)"),
    "review_never": ("不审核（立即发布）", "Never (published at once)"),
    "auto_publish": ("无人审核时自动发布（分钟后）", "Publish unreviewed posts after (minutes)"),
    "auto_publish_hint": (
        "留空表示一直等待导演审核。",
        "Leave empty to wait for you however long it takes.",
    ),
    "post_language": ("帖子语言", "Language of the posts"),
    "lang_zh": ("中文", "Chinese"),
    "lang_en": ("英文", "English"),
    "settings_saved": ("设置已保存。", "Settings saved."),
    "channels": ("频道", "Channels"),
    "channel_kind": ("类型", "Kind"),
    "channel_name": ("频道名", "Channel name"),
    "channel_format": ("格式", "Format"),
    "channel_format_default": ("按类型默认", "the kind's own"),
    "add_channel": ("添加频道", "Add a channel"),
    "remove": ("移除", "Remove"),
    "remove_channel_hint": (
        "移除后不再向它发送；尚未发送的投递一并放弃。",
        "Nothing more goes to it; what it has not sent yet is given up.",
    ),
    "secret_set": ("已设置（不再显示）", "set (never shown again)"),
    "secret_hint": (
        "密钥加密保存，保存后不会再显示。",
        "Secrets are stored encrypted and never shown again.",
    ),
    "channel_added": ("频道已添加。", "Channel added."),
    "reminders": ("截止提醒", "Deadline reminders"),
    "reminder_offsets": (
        "截止前多少分钟提醒（逗号分隔）",
        "Minutes before each deadline (comma-separated)",
    ),
    "reminder_offsets_hint": (
        "例如 120, 30：截止前 2 小时和 30 分钟各发一帖，点名还没下指令或就绪的玩家。留空则关闭。",
        "e.g. 120, 30: a post two hours and half an hour before each deadline, naming who has "
        "not ordered or readied yet. Empty turns reminders off.",
    ),
    "reminder_channel": ("发到", "Post to"),
    "all_channels": ("所有频道", "every channel"),
    "share_links": (
        "把邀请链接私下发给对应的玩家。",
        "Send each invite link privately to its player.",
    ),
}

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
    "webhook_url": ("Webhook 地址", "Webhook URL"),
    "bot_token": ("机器人令牌", "Bot token"),
    "chat_id": ("群组编号（`chat_id`）", "Chat id (`chat_id`)"),
    "api_base": ("API 地址（可选）", "API address (optional)"),
    "message_thread_id": ("话题编号（可选）", "Topic id (optional)"),
    "access_token": ("访问令牌（`access_token`，可选）", "Access token (`access_token`, optional)"),
    "group_id": ("群号", "Group number"),
}

Translate = Callable[..., str]


def choose_language(cookie: str | None, accept_language: str | None) -> str:
    if cookie in LANGS:
        return str(cookie)
    return "en" if prefers_english(accept_language) else "zh"


def translator(lang: str, words: Words | None = None) -> Translate:
    """The page's words: the shell's generic catalogue, then the game's (``words``): the key
    itself, else its page word (a field the shell labels, "stamina", is ``page.stamina``)."""
    index = 1 if lang == "en" else 0

    def t(key: str, **fields: Any) -> str:
        pair = UI.get(key)
        if pair is None and words is not None:
            pair = words.get(key) or words.get(f"page.{key}")
        if pair is None:
            return key
        return pair[index].format(**fields) if fields else pair[index]

    return t


def game_words(ruleset: str) -> Words:
    """The game's one catalogue (empty for an unknown game)."""
    return get_presentation(ruleset).words


def game_pages(ruleset: str) -> Pages:
    """The game's page parts; the kit's plain defaults when it has none."""
    return get_presentation(ruleset).pages or DEFAULT_PAGES


def game_translator(lang: str, ruleset: str) -> Translate:
    return translator(lang, game_words(ruleset))


def pick(lang: str, zh: str | None, en: str | None) -> str:
    """One of a pair of texts the engine gave (a refusal, a report line)."""
    return (en if lang == "en" else zh) or zh or en or ""


def order_name(ruleset: str, order_type: str, lang: str) -> str:
    return kit_order_name(game_words(ruleset), order_type, lang)


def game_word(ruleset: str, key: str, lang: str, **fields: Any) -> str | None:
    """A word of the game's catalogue; without a game (a report that does not say whose),
    of the first game that has it."""
    for name in [ruleset] if ruleset else list(all_rulesets()):
        said = kit_pick(game_words(name), key, lang, **fields)
        if said is not None:
            return said
    return None


def phase_name(ruleset: str, phase: str, lang: str) -> str:
    """A phase's name: the game's ``phase.<phase>`` word, else the phase made readable."""
    return game_word(ruleset, f"phase.{phase}", lang) or readable(phase, lang)


def tool_name(ruleset: str, action: str, lang: str) -> str:
    """A director tool's name: the game's ``tool.<action>``, else the action made readable."""
    return game_word(ruleset, f"tool.{action}", lang) or readable(action, lang)


def setting_label(ruleset: str, name: str, lang: str) -> str:
    """A setting's label on the new-game form: the game's ``setting.<field>``, else its name."""
    return game_word(ruleset, f"setting.{name}", lang) or name


def game_title(ruleset: str, lang: str) -> str:
    """A game type's name ("团战"): its ``page.title`` word, else its name made readable."""
    return kit_pick(game_words(ruleset), "page.title", lang) or readable(ruleset, lang)


def side_name(side: str | None, lang: str, ruleset: str) -> str:
    return game_pages(ruleset).side_name(side, game_translator(lang, ruleset))


# --- event lines ------------------------------------------------------------------------
# Every kind of event either game writes, as a line a forum reader understands. Lists read
# as lists ("4、7、8、6、5"), ids as the names the scenario gives them, results as words.
_EVENTS: dict[str, tuple[str, str]] = {
    "game_started": ("游戏开始。", "The game has started."),
    "phase_opened": ("{phase}开始。", "{phase} opened."),
    "phase_closed": ("{phase}结束。", "{phase} closed."),
    "order_submitted": (
        "{side}提交了指令：{order}{detail}。",
        "{side} gave an order: {order}{detail}.",
    ),
    "order_revised": (
        "{side}修改了指令：{order}{detail}。",
        "{side} revised an order: {order}{detail}.",
    ),
    "order_withdrawn": (
        "{side}撤回了指令：{order}{detail}。",
        "{side} withdrew an order: {order}{detail}.",
    ),
    "order_voided": ("指令无效：{side}{order}（{why}）", "Order void: {side} {order} ({why})"),
    "game_over": ("游戏结束，{result}。", "Game over. {result}."),
    "paused": ("导演暂停了游戏。", "The director paused the game."),
    "resumed": ("游戏继续。", "The game resumed."),
    "deadline_extended": ("截止时间已延长。", "The deadline was extended."),
    "seed_revealed": (
        "随机种子已公开，可以验证。",
        "The seed is revealed: the game can be verified.",
    ),
    "hidden_events_revealed": ("全部隐藏信息已公开。", "Everything hidden is now revealed."),
    "player_replaced": ("{name} 由新玩家接替。", "{name} is now played by someone new."),
    "deadline_missed": (
        "截止时间在停机期间错过，游戏已暂停。",
        "A deadline was missed while down; the game is paused.",
    ),
    "timer_refused": ("一个计时器被拒绝。", "A timer was refused."),
    "timer_failed": (
        "一个计时器多次运行出错，已停下；游戏已暂停，等待导演处理。",
        "A timer kept failing and was parked; the game is paused until the director acts.",
    ),
    "orders_sealed": ("隐藏指令已封存，收据已公布。", "Hidden orders sealed; receipts published."),
    "receipts_opened": (
        "收据已开封，任何人都可以核对。",
        "Receipts opened: anyone can check them.",
    ),
    "receipt_contents": (
        "封存的内容（仅导演可见）：{when}：{contents}。",
        "What was sealed (director only), {when}: {contents}.",
    ),
    # island
}

CAUSES: dict[str, tuple[str, str]] = {
    "assassination": ("暗杀", "assassination"),
    "counter_kill": ("反杀", "a counter-kill"),
    "starvation": ("饥饿", "starvation"),
    "illness": ("疾病", "illness"),
    "hunt": ("打猎", "a hunt"),
    "monster": ("野兽", "a beast"),
    "pk": ("PK", "a PK"),
    "director": ("导演判定", "the director"),
}

# A fight with a beast (IS-52, IS-53) and what a loser's loss came to (IS-13).
_FIGHTS: dict[str, tuple[str, str]] = {
    "vanished": ("它没有攻击，离开了", "it did not attack and went away"),
    "won": ("战胜了它，获得食物 {food} 份", "beat it and got {food} food"),
    "lost": ("败给了它，战力下降", "lost to it and lost power"),
    "fled": ("败给了它，逃跑了（保住战力）", "lost to it and fled (power kept)"),
    "died": ("败给了它，死亡", "lost to it and died"),
}
_LOSSES: dict[str, tuple[str, str]] = {
    "lost": ("{name} 战力下降", "{name} lost power"),
    "fled": ("{name} 逃跑", "{name} fled"),
    "died": ("{name} 死亡", "{name} died"),
}
_MISSING_DEPLOYMENT: dict[str, tuple[str, str]] = {
    "even": (
        "{sides}未按时部署，兵力已平均分配。",
        " {sides} did not deploy in time: troops spread evenly.",
    ),
    "forfeit": ("{sides}未按时部署，判负。", " {sides} did not deploy in time and forfeits."),
}
_OK = {True: ("成功", "succeeded"), False: ("失败", "failed")}

_NOTES: dict[str, tuple[str, str]] = {
    "assassination": ("你对 {target} 的暗杀{ok}。", "Your assassination of {target} {ok}."),
    "assassins_revealed": ("暗杀你的人：{assassins}。", "Your assassins were: {assassins}."),
    "assassination_missed": ("暗杀目标不在预定位置。", "Your target was not where you struck."),
    "assassination_void": ("暗杀人数已满，你的暗杀无效。", "Too many assassins: yours was void."),
    "counter_kill": ("反杀{ok}。", "Counter-kill {ok}."),
    "counter_kill_against": ("你对 {other} 的反杀{ok}。", "Your counter-kill on {other} {ok}."),
    "counter_kill_by": ("{other} 对你的反杀{ok}。", "{other}'s counter-kill on you {ok}."),
    "night_position": ("你现在位于 {at}。", "You are now at {at}."),
    "ate": ("你吃了 1 份食物，剩余 {food_left}。", "You ate 1 food; {food_left} left."),
    "hungry": ("没有食物，饥饿度 {hunger}。", "No food: hunger {hunger}."),
    "death": ("你死了（{cause}）。", "You died ({cause})."),
    "night_encounter": (
        "夜里在 {at} 遇到{monster}：{fight}。",
        "In the night at {at}, met a {monster}: {fight}.",
    ),
    "monster_attack": ("{time}{monster}来袭：{fight}。", "{time}A {monster} attacked: {fight}."),
}


class _Formatter(string.Formatter):
    """A field the event did not carry reads as "?" rather than breaking the line."""

    def get_value(self, key: int | str, args: Any, kwargs: Any) -> Any:
        if isinstance(key, str):
            return kwargs.get(key, "?")
        return super().get_value(key, args, kwargs)


def _cell(value: Any) -> str:
    if isinstance(value, list | tuple) and len(value) == 2:
        return f"({value[0]},{value[1]})"
    return "?" if value is None else str(value)


def _join(values: Any, lang: str) -> str:
    """A list as a reader writes one: "4、7、8" in Chinese, "4, 7, 8" in English."""
    if not isinstance(values, list | tuple):
        return "?" if values is None else str(number(values))
    return ("、" if lang != "en" else ", ").join(str(number(v)) for v in values)


def _moves(moves: Any, lang: str) -> str:
    """A Dispatch's moves: "从第3格调 4 到第2格" / "4 from slot 3 to slot 2"."""
    return (", " if lang == "en" else "、").join(
        f"{m.get('troops')} from slot {m.get('from')} to slot {m.get('to')}"
        if lang == "en"
        else f"从第{m.get('from')}格调 {m.get('troops')} 到第{m.get('to')}格"
        for m in moves or []
        if isinstance(m, Mapping)
    )


def _say(pair: tuple[str, str], lang: str, **fields: Any) -> str:
    return _Formatter().vformat(pair[1 if lang == "en" else 0], (), fields)


def describe_event(
    kind: str,
    data: Mapping[str, Any],
    lang: str,
    ruleset: str,
    names: Mapping[str, str],
    settings: Mapping[str, Any] | None = None,
) -> str:
    """One line a reader understands for an event; the data's own text where it has one.

    ``settings`` are the game's (a scenario may name its items, beasts and
    terrains); without them an id reads as itself. A game's own ``event.<kind>`` line in
    its catalogue comes before the shell's."""
    words = game_words(ruleset)
    t = translator(lang, words)
    en = lang == "en"
    world: Mapping[str, Any] = settings or {}
    sep = ", " if en else "、"

    def name(pid: Any) -> str:
        return names.get(str(pid), "?") if pid is not None else "?"

    def who(values: Any) -> str:
        return sep.join(name(p) for p in values or []) or t("none")

    def phase(value: Any) -> str:
        return phase_name(ruleset, value, lang) if isinstance(value, str) else ""

    def order(value: Any) -> str:
        return order_name(ruleset, str(value), lang) if value else ""

    def side(value: Any) -> str:
        return side_name(str(value), lang, ruleset) if value else ""

    def item(value: Any) -> str:
        if value == "food":
            return t("food")
        entry = world.get("items", {}).get(str(value)) or {}
        return str(entry.get("name") or value)

    def beast(value: Any) -> str:
        entry = world.get("monster_kinds", {}).get(str(value)) or {}
        return str(entry.get("name") or value or t("monster"))

    def fight(result: Mapping[str, Any]) -> str:
        pair = _FIGHTS.get(str(result.get("result")))
        return _say(pair, lang, food=result.get("food", "?")) if pair else "?"

    def losses(values: Any) -> str:
        if not isinstance(values, Mapping):
            return ""
        return sep.join(
            _say(_LOSSES[str(v)], lang, name=name(k))
            for k, v in values.items()
            if str(v) in _LOSSES
        )

    def slot_of(body: Any) -> str:
        if isinstance(body, Mapping) and isinstance(body.get("slot"), int):
            return (
                f"（{t('slot_n', n=body['slot'])}）"
                if not en
                else f" ({t('slot_n', n=body['slot'])})"
            )
        return ""

    fields: dict[str, Any] = {
        k: number(v)
        for k, v in data.items()
        if isinstance(k, str) and not isinstance(v, dict | list) and v is not None
    }
    fields["side_A"], fields["side_B"] = side("A"), side("B")
    fields["side"] = side(data.get("side"))
    fields["detail"] = ""
    if "phase" in data:
        fields["phase"] = phase(data["phase"])
    if "type" in data:
        fields["order"] = order(data["type"])
    key = kind
    if kind == "game_over":
        if "survivors" in data:
            fields["survivors"] = who(data.get("survivors"))
        winner = data.get("winner")
        fields["result"] = t("draw") if winner == "draw" else t("winner_is", side=side(winner))
    elif kind == "deployment_revealed":
        fields["A"], fields["B"] = _join(data.get("A"), lang), _join(data.get("B"), lang)
        late = [side(s) for s in data.get("defaulted") or []]
        rule = _MISSING_DEPLOYMENT.get(str(data.get("default_rule")), _MISSING_DEPLOYMENT["even"])
        fields["defaulted"] = _say(rule, lang, sides=sep.join(late)) if late else ""
    elif kind == "orders_announced":
        shown = [
            f"{side(o.get('side'))}{'' if not en else ' '}{order(o.get('type'))}"
            + slot_of(o.get("body"))
            for o in data.get("orders", [])
        ]
        if not shown:
            key = "orders_announced_none"
        fields["orders"] = ("; " if en else "；").join(shown)
    elif kind == "troops_dispatched":
        fields["before"] = _join(data.get("before"), lang)
        fields["after"] = _join(data.get("after"), lang)
        fields["moves"] = _moves(data.get("moves"), lang) or t("none")
    elif kind in ("order_submitted", "order_revised", "order_withdrawn"):
        body = data.get("body")
        if isinstance(body, Mapping) and isinstance(body.get("moves"), list):
            moved = _moves(body["moves"], lang)
            fields["detail"] = f" ({moved})" if en else f"（{moved}）"
        elif isinstance(body, Mapping) and isinstance(body.get("troops"), list):
            fields["detail"] = (
                f"（{_join(body['troops'], lang)}）"
                if not en
                else f" ({_join(body['troops'], lang)})"
            )
        else:
            fields["detail"] = slot_of(body)
        if kind == "order_revised":
            fields["target"] = name(data.get("target"))
        refund = data.get("refund")
        if refund:
            fields["detail"] = kit_pick(words, f"event.{kind}.refund", lang, refund=refund) or ""
    elif kind == "order_voided":
        fields["why"] = pick(lang, data.get("message_zh"), data.get("message_en"))
    elif kind == "orders_nullified":
        fields["orders"] = sep.join(order(o.get("type")) for o in data.get("orders", []))
    elif kind == "order_seen_through":
        fields["order"] = order(data.get("order_type"))
    elif kind == "round_resolved":
        morale = data.get("morale", {})
        fields["mA"], fields["mB"] = number(morale.get("A")), number(morale.get("B"))
    elif kind == "intel":
        face: Mapping[str, Any] = data.get("order") or {}
        fields["order"] = order(face.get("type")) if face else ""
        fields["detail"] = slot_of(face.get("body")) if face else ""
        status = data.get("status")
        if status == "gone":
            key = "intel_gone"  # the order seen was withdrawn before the look
        elif f"order_status_{status}" in UI:
            fields["status"] = t(f"order_status_{status}")
        else:
            key = "intel_plain"
    elif kind == "disguised_order_announced":
        fields["order"], fields["shown"] = order(data.get("type")), order(data.get("shown_as"))
    elif kind == "commander_set":
        fields["name"] = name(data.get("player_id"))
    elif kind == "player_replaced":
        fields["name"] = data.get("name") or name(data.get("player_id"))
    elif kind == "receipt_contents":
        if "day" in data:
            fields["when"] = t("day_n", n=data.get("day"))
        else:
            fields["when"] = (
                f"{t('round_n', n=data.get('round'))}{' ' if en else ''}{phase(data.get('phase'))}"
            )
        sealed = data.get("sealed") or {}
        fields["contents"] = ("; " if en else "；").join(
            f"{side(owner) if owner in ('A', 'B') else name(owner)}{': ' if en else '：'}"
            + (
                sep.join(_sealed_order(o, ruleset, lang, names) for o in orders)
                if orders
                else t("none")
            )
            for owner, orders in sealed.items()
        ) or t("none")
    elif kind == "placed":
        fields["at"] = _cell(data.get("at"))
        fields["name"] = name(data.get("player"))
    elif kind == "moved":
        fields["name"] = data.get("name") or name(data.get("player"))
        start, end = data.get("from"), data.get("to")
        fields["from_"], fields["to"] = _cell(start), _cell(end)
        fields["hidden"] = (" (hidden)" if en else "（隐藏）") if data.get("hidden") else ""
        if start is None and end is None:
            key = "moved_unseen"
        elif end is None:
            key = "moved_away"  # seen leaving a cell this viewer sees, not where to (IS-55)
        elif start is None:
            key = "moved_in"
    elif kind == "encounter":
        fields["name"] = name(data.get("player"))
        fields["monster"] = beast(data.get("monster"))
        fields["fight"] = fight(data)
    elif kind == "explored":
        found = str(data.get("found"))
        known = f"explored_{found}" in _EVENTS or f"event.explored_{found}" in words
        key = f"explored_{found}" if known else "explored"
        fields["item"] = item(data.get("item"))
        encounter = data.get("encounter") or {}
        fields["monster"] = beast(encounter.get("monster"))
        fields["fight"] = fight(encounter)
    elif kind == "pk_posted":
        fields["names"] = " vs ".join(who(data.get(k)) for k in ("attackers", "defenders"))
    elif kind in ("pk_joined", "pk_fled"):
        fields["name"] = data.get("name") or name(data.get("player"))
        fields["side"] = t("pk_attack" if data.get("side") == "attack" else "pk_defend")
    elif kind == "pk_resolved":
        fields["winner"] = t("pk_attack" if data.get("winner") == "attack" else "pk_defend")
        lost = losses(data.get("losses"))
        fields["losses"] = (f" ({lost})" if en else f"（{lost}）") if lost else ""
    elif kind == "hunt":
        won = data.get("result") == "won"
        key = "hunt_won" if won else "hunt_lost" if data.get("result") == "lost" else "hunt"
        fields["hunters"] = who(data.get("hunters"))
        fields["monster"] = beast(data.get("kind"))
        food = data.get("food")
        shares: Mapping[str, Any] = food if isinstance(food, Mapping) else {}
        fields["shares"] = sep.join(f"{name(k)} {v}" for k, v in shares.items()) or t("none")
        fields["losses"] = losses(data.get("losses")) or t("none")
    elif kind == "gave":
        fields["giver"], fields["to"] = name(data.get("from")), name(data.get("to"))
        fields["item"] = item(data.get("item"))
    elif kind == "order_posted":
        fields["order"] = order_name(ruleset, str(data.get("type")), lang)
        fields["target"] = name(data.get("target"))
    elif kind in ("target_moved", "held_move_done") and (data.get("zh") or data.get("en")):
        return pick(lang, data.get("zh"), data.get("en"))  # the engine's own words
    elif kind == "story_triggered":
        fields["name"] = name(data.get("player"))
        fields["at"] = _cell(data.get("at"))
        fields["text"] = data.get("text") or ""
    elif kind == "director_action":
        action = str(data.get("action"))
        fields["action"] = tool_name(ruleset, action, lang)
        fields["detail"] = _tool_detail(data.get("args") or {}, lang, name, item, side)
    elif kind == "death":
        fields["name"] = data.get("name") or name(data.get("player"))
        cause = str(data.get("cause"))
        fields["cause"] = pick(lang, *CAUSES.get(cause, CAUSES["director"]))
    elif kind == "death_announced":
        fields["name"] = data.get("name") or name(data.get("player"))
    elif kind in ("monster_attack", "night_encounter"):
        fields["monster"] = beast(data.get("monster"))
        fields["fight"] = fight(data)
        fields["at"] = _cell(data.get("at"))
        fields["time"] = f"{data['time']} " if data.get("time") else ""
    elif kind == "night_report":
        fields["notes"] = " ".join(
            filter(None, (_note(n, lang, names, world) for n in data.get("notes", [])))
        )
    elif kind == "day_report":
        fields["deaths"] = sep.join(d.get("name", "?") for d in data.get("deaths", [])) or t("none")
        fields["alive"] = sep.join(a.get("name", "?") for a in data.get("alive", [])) or t("none")
    elif kind == "director_report":
        fields["parts"] = _director_report(data, lang, names, world)
    pair = words.get(f"event.{key}") or _EVENTS.get(key)
    if pair is None:
        return readable(kind, lang)  # an event without words: never its raw kind
    try:
        return _say(pair, lang, **fields).strip()
    except (IndexError, ValueError):
        return pair[1 if en else 0]


def _sealed_order(o: Mapping[str, Any], ruleset: str, lang: str, names: Mapping[str, str]) -> str:
    """One sealed order as the director reads it: "暗杀 李四", "反击（第2格）"."""
    label = order_name(ruleset, str(o.get("type")), lang)
    if o.get("target"):
        return f"{label} {names.get(str(o['target']), '?')}"
    body = o.get("body")
    if isinstance(body, Mapping) and isinstance(body.get("slot"), int):
        slot = game_translator(lang, ruleset)("slot_n", n=body["slot"])
        return f"{label} ({slot})" if lang == "en" else f"{label}（{slot}）"
    return label


def _tool_detail(
    args: Mapping[str, Any],
    lang: str,
    name: Callable[[Any], str],
    item: Callable[[Any], str],
    side: Callable[[Any], str],
) -> str:
    """What a director action was applied to: "（李四 → (2,3)）", "（张三，绳子 ×1）"."""
    t = translator(lang)
    parts: list[str] = []
    who = args.get("player") or args.get("player_id")
    if who:
        parts.append(name(who))
    if isinstance(args.get("players"), list) and args["players"]:
        parts.append(("、" if lang != "en" else ", ").join(name(p) for p in args["players"]))
    if args.get("side") in ("A", "B"):
        parts.append(side(args["side"]))
    if isinstance(args.get("to"), list):
        parts.append(f"→ {_cell(args['to'])}")
    if args.get("item"):
        parts.append(f"{item(args['item'])} ×{args.get('count', 1)}")
    if isinstance(args.get("delta"), int | float):
        parts.append(f"{number(args['delta']):+}")
    if args.get("cause"):
        cause = str(args["cause"])
        parts.append(pick(lang, *CAUSES.get(cause, CAUSES["director"])))
    if isinstance(args.get("forbid"), bool):
        parts.append(t("forbid") if args["forbid"] else ("allow" if lang == "en" else "允许"))
    if isinstance(args.get("text"), str) and args["text"]:
        parts.append(args["text"])
    if isinstance(args.get("faction"), str) and args["faction"]:
        parts.append(args["faction"])
    if not parts:
        return ""
    joined = ", ".join(parts) if lang == "en" else "，".join(parts)
    return f" ({joined})" if lang == "en" else f"（{joined}）"


def _director_report(
    data: Mapping[str, Any], lang: str, names: Mapping[str, str], world: Mapping[str, Any]
) -> str:
    """The director's night: each assassination, the deaths, each player's private notes."""
    en = lang == "en"
    t = translator(lang)
    sep = ", " if en else "、"

    def name(pid: Any) -> str:
        return names.get(str(pid), "?")

    parts: list[str] = []
    for a in data.get("assassinations") or []:
        ok = _OK[bool(a.get("success"))][1 if en else 0]
        assassins = sep.join(name(x) for x in a.get("assassins") or [])
        line = (
            f"{assassins} assassinated {name(a.get('target'))}: {ok}"
            if en
            else f"{assassins} 暗杀 {name(a.get('target'))}{ok}"
        )
        guarded = [name(x) for x in a.get("guarded") or []]
        if guarded:
            line += (
                f" (guarded against {sep.join(guarded)})"
                if en
                else f"（提防了 {sep.join(guarded)}）"
            )
        for c in a.get("counter_kills") or []:
            c_ok = _OK[bool(c.get("success"))][1 if en else 0]
            line += (
                f", counter-kill on {name(c.get('assassin'))} {c_ok}"
                if en
                else f"，反杀 {name(c.get('assassin'))}{c_ok}"
            )
        parts.append(line)
    if not data.get("assassinations"):
        parts.append("no assassination" if en else "无暗杀")
    deaths = sep.join(d.get("name") or name(d.get("player")) for d in data.get("deaths") or [])
    parts.append(f"dead: {deaths or t('none')}" if en else f"死亡：{deaths or t('none')}")
    notes = data.get("notes") or {}
    for pid, items in notes.items() if isinstance(notes, Mapping) else []:
        said = " ".join(filter(None, (_note(n, lang, names, world) for n in items or [])))
        if said:
            parts.append(f"{name(pid)}{': ' if en else '：'}{said}")
    stories = data.get("story_queue_open") or []
    if stories:
        parts.append(
            f"{len(stories)} stories to resolve" if en else f"待结算剧情 {len(stories)} 个"
        )
    return ("; " if en else "；").join(p.rstrip("。. ") for p in parts)


def _note(
    note: Mapping[str, Any],
    lang: str,
    names: Mapping[str, str],
    world: Mapping[str, Any] | None = None,
) -> str:
    kind = str(note.get("kind"))
    if "zh" in note or "en" in note:
        return pick(lang, note.get("zh"), note.get("en"))
    if kind == "counter_kill" and (note.get("against") or note.get("by")):
        kind = "counter_kill_against" if note.get("against") else "counter_kill_by"
    pair = _NOTES.get(kind)
    if pair is None:
        return ""
    en = lang == "en"
    ok = note.get("success")
    kinds = (world or {}).get("monster_kinds", {})
    monster = str((kinds.get(str(note.get("monster"))) or {}).get("name") or note.get("monster"))
    fight = _FIGHTS.get(str(note.get("result")))
    other = note.get("by") or note.get("against")
    fields = {
        "target": names.get(str(note.get("target")), "?"),
        "assassins": ("、" if not en else ", ").join(
            names.get(str(a), "?") for a in note.get("assassins", [])
        ),
        "ok": _OK[bool(ok)][1 if en else 0],
        "at": _cell(note.get("at")),
        "food_left": note.get("food_left"),
        "hunger": note.get("hunger"),
        "cause": pick(lang, *CAUSES.get(str(note.get("cause")), CAUSES["director"])),
        "monster": monster,
        "fight": _say(fight, lang, food=note.get("food", "?")) if fight else "?",
        "time": f"{note['time']} " if note.get("time") else "",
    }
    fields["other"] = names.get(str(other), "?")
    return _say(pair, lang, **fields)
