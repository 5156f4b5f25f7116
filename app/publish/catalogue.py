"""The generic phrases of every post, Chinese first, English beside it. A game's own post
words are in its catalogue (``app.rules.<game>.words``, ``post.<...>``, and its ``order.*``,
``phase.*``, ``event.*`` names); a post's context speaks both, the game's over these.

Phrases are ``str.format`` patterns. They are trusted markup-free text: what fills their
fields is escaped for the post's format first (``Ctx.t``), so a phrase never carries a
name's characters unescaped. Keep phrases free of characters a format would read as markup
at the start of a line (``#``, ``>``, ``-``, ``1.``) and of ``*``, ``_``, ``[``.
"""

from __future__ import annotations

PHRASES: dict[str, tuple[str, str]] = {
    # --- titles (plain text; the channel shows them as thread/post titles) ---------------
    "title.game_started": ("【开局】{title}", "[Start] {title}"),
    "title.game_finished": ("【终局】{title}", "[Game over] {title}"),
    "title.seed_revealed": ("【种子公开】{title}", "[Seed revealed] {title}"),
    "title.reminder": ("【截止提醒】{title}", "[Deadline reminder] {title}"),
    "title.tally": ("【下令统计】{title}", "[Orders tally] {title}"),
    "title.receipts": ("【收据】{title}", "[Receipts] {title}"),
    "title.notice": ("【公告】{title}", "[Notice] {title}"),
    "title.events": ("【进展】{title}", "[Update] {title}"),
    # --- shared ----------------------------------------------------------------------------
    "yes": ("是", "yes"),
    "no": ("否", "no"),
    "none": ("无", "none"),
    # Characters of one width everywhere (no East Asian "ambiguous" ones): text tables align.
    "dash": ("-", "-"),
    "check": ("是", "yes"),
    "cross": ("否", "no"),
    "list_sep": ("、", ", "),
    "player_forum": ("{name}（{forum}）", "{name} ({forum})"),
    "deadline": ("截止时间：{when}", "Deadline: {when}"),
    "deadline_allowed": ("截止时间：{when}，限时{duration}", "Deadline: {when}, {duration} in all"),
    "no_deadline": (
        "本阶段没有截止时间，由导演宣布结束。",
        "This phase has no deadline: the director closes it.",
    ),
    "duration.days": ("{n}天", "{n} d"),
    "duration.hours": ("{n}小时", "{n} h"),
    "duration.minutes": ("{n}分钟", "{n} min"),
    "duration.seconds": ("{n}秒", "{n} s"),
    "time": (
        "{date} {weekday} {hm}（{zone}，UTC{offset}）",
        "{weekday} {date} {hm} ({zone}, UTC{offset})",
    ),
    "time.beijing": ("{date} {weekday} {hm}（北京时间）", "{weekday} {date} {hm} Beijing time"),
    "weekdays": ("周一 周二 周三 周四 周五 周六 周日", "Mon Tue Wed Thu Fri Sat Sun"),
    "head.roster": ("【阵容】", "Roster"),
    "head.settings": ("【设置】", "Settings"),
    "head.seed": ("【种子承诺】", "Seed commitment"),
    "head.receipts": ("【收据】", "Receipts"),
    "col.side": ("阵营", "Side"),
    "col.players": ("玩家", "Players"),
    "col.player": ("玩家", "Player"),
    "col.setting": ("项目", "Setting"),
    "col.value": ("数值", "Value"),
    "col.slot": ("格", "Slot"),
    "col.total": ("合计", "Total"),
    "col.ordered": ("已下令", "Ordered"),
    "col.ready": ("已就绪", "Ready"),
    "col.round_phase": ("回合·阶段", "Round · phase"),
    "col.order": ("指令", "Order"),
    "col.status": ("状态", "Status"),
    "col.owner": ("归属", "Owner"),
    "col.receipt": ("收据", "Receipt"),
    "seed.commitment_intro": (
        "本局随机种子在开局前已封存，其 SHA-256 承诺值为（分两行显示）：",
        "The game's random seed was sealed before the start; its SHA-256 commitment is:",
    ),
    "seed.commitment_note": (
        "游戏结束时公布种子，任何人都可以核对 SHA-256(种子) 等于此值，并重放每一次掷骰。",
        "The seed is published when the game ends: anyone can check that SHA-256(seed) "
        "equals this value and replay every roll.",
    ),
    "seed.revealed": ("本局种子：", "The seed:"),
    "head.seed_revealed": ("【公布种子】", "The seed, revealed"),
    "seed.matches": (
        "它的 SHA-256 应等于开局帖里封存的承诺值；每一次掷骰都由它算出。",
        "Its SHA-256 must equal the commitment sealed in the opening post; every roll comes "
        "from it.",
    ),
    "seed.check": (
        "{link}会为你重算承诺、每一次掷骰与每份收据。",
        "{link} re-checks the commitment, every roll and every receipt for you.",
    ),
    "head.how": ("【如何下令】", "How to order"),
    "how.page": (
        "在{link}下令：用导演发给你的邀请链接登录，每个阶段的可选指令都列在页面上。",
        "On {link}: sign in with the invite link the director sent you; each phase's orders "
        "are listed there.",
    ),
    "how.page_label": ("玩家页", "your player page"),
    "how.page_offline": (
        "在玩家页下令：用导演发给你的邀请链接登录。",
        "On your player page: sign in with the invite link the director sent you.",
    ),
    "how.thread": (
        "或在本帖直接回帖，用平常的话写指令，一行一条（写法与玩家页上的示例相同；引用的文字不算）。"
        "第一次回帖时附上玩家页给出的绑定码（FP-开头），机器人会回复它读到的指令。",
        "Or reply in this thread, one order a line, in plain words as your page shows them "
        "(quoted text is not read). Add the link code from your page (FP-…) to your first "
        "reply; the bot answers with what it read.",
    ),
    "how.dm": (
        "暗令也可以私信机器人：{bots}。先在玩家页上取一个绑定码发给它，之后直接写指令；"
        "它回复读到的指令和你的收据。",
        "Hidden orders may also go by private message to {bots}. Send it the link code from "
        "your page first, then write your orders; it answers with what it read and your receipt.",
    ),
    "how.watch": (
        "{link}：所有人可看的战况与核对。",
        "{link}: the game for everyone, and the checks.",
    ),
    "how.watch_label": ("观战页", "The spectator page"),
    "seed.undos": (
        "本局导演共撤销了 {n} 次结算（每次都已公开原因）；被撤销的掷骰也在记录里，一并验证。",
        "The director undid {n} resolutions in this game (each announced with its reason); "
        "the undone rolls are in the record too and are verified with the rest.",
    ),
    "seed.verify_offline": (
        "服务器地址未公开：可向导演索取本局存档，离线重放验证。",
        "No public address is set: ask the director for the game's archive to replay it offline.",
    ),
    # --- service notices ------------------------------------------------------------------
    "notice.paused": (
        "导演暂停了游戏，所有计时停止。",
        "The director paused the game: every clock stops.",
    ),
    "notice.resumed": ("游戏恢复。", "The game resumes."),
    "notice.deadline_extended": ("截止时间延长至 {when}。", "The deadline is extended to {when}."),
    "notice.new_deadline": ("当前截止时间：{when}。", "Current deadline: {when}."),
    "notice.undone_round": (
        "更正：导演撤销了第 {round} 回合的结算，原因：{reason}。此前的结算作废，将重新结算（新的掷骰）。",
        "Correction: the director undid round {round}'s resolution. Reason: {reason}. "
        "It is void and will be resolved again (new dice).",
    ),
    "notice.undone": (
        "更正：导演撤销了最近 {n} 步结算，原因：{reason}。此前的结算作废，将重新结算（新的掷骰）。",
        "Correction: the director undid the last {n} steps. Reason: {reason}. "
        "They are void and will be resolved again (new dice).",
    ),
    "withdrawn.note": (
        "【已作废】导演撤销了这次结算（原因：{reason}），以下内容不再有效。",
        "Withdrawn: the director undid this resolution (reason: {reason}); what follows no "
        "longer stands.",
    ),
    "withdrawn.link": ("见更正", "See the correction"),
    "notice.undone_count": ("（本局第 {n} 次撤销）", "(undo number {n} in this game)"),
    # --- the kit's plain post: an event the game has no words for ----------------------------
    "event_line.unnamed": ("公开事件 #{seq}", "Public event #{seq}"),
    # --- receipts (收据, as the pages say) ----------------------------------------------------
    "rc.sealed_line": (
        "{label}已截止，暗令封存为收据：{receipts}",
        "{label} closed; receipts sealed: {receipts}",
    ),
    "rc.sep": ("｜", " | "),
    "rc.full": ("{label} · {owner}：{receipt}", "{label} · {owner}: {receipt}"),
    "rc.fold": ("完整收据", "Full receipts"),
    "rc.opened_line": (
        "{labels}的指令已公开，{n} 份收据现在可以核对。",
        "{labels}: the orders are revealed; {n} receipt(s) can be checked now.",
    ),
    "rc.opened_end": (
        "游戏结束，全部 {n} 份收据（{labels}）现在可以核对。",
        "The game is over: all {n} receipts ({labels}) can be checked now.",
    ),
    "rc.check": (
        "你下令后收到的收据应与此一致。逐一核对每份收据与每次掷骰：{link}",
        "The receipt you got when you ordered should match. Every receipt and roll, checked: "
        "{link}",
    ),
    "rc.check_label": ("观战页", "The spectator page"),
    "rc.check_offline": (
        "你下令时收到的收据应与此一致；可向导演索取本局存档核对。",
        "The receipt you got when you ordered should match; ask the director for the archive to check.",
    ),
    # --- reminders and tallies ----------------------------------------------------------------
    "reminder.line": (
        "截止时间 {when}，以下玩家尚未下令或就绪：",
        "Deadline {when}; these players have not ordered or readied yet:",
    ),
    "reminder.left": ("还剩 {left}。", "{left} left. "),
    "reminder.nobody": ("所有玩家都已就绪。", "Everyone is ready."),
    "tally.intro": (
        "当前下令与就绪情况（只统计是否下令，不含内容）：",
        "Who has ordered and readied (never what):",
    ),
    "tally.side_line": ("{side}（{players}）：{state}", "{side} ({players}): {state}"),
    "tally.line": ("{player}：{state}", "{player}: {state}"),
    "tally.ordered": ("已下令", "ordered"),
    "tally.not_ordered": ("未下令", "no orders yet"),
    "tally.ready": ("已就绪", "ready"),
    "tally.not_ready": ("未就绪", "not ready"),
    "tally.deadline": ("截止时间：{when}", "Deadline: {when}"),
}
