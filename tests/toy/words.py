"""The toy duel's one catalogue: every word a person reads of it, key -> (Chinese, English).

Keys are namespaced as :mod:`app.kit.words` says. The rules core reads its refusals from here
(``error.<code>``), so each text is written once.
"""

from __future__ import annotations

NAMES: dict[str, tuple[str, str]] = {
    "page.title": ("猜拳对决", "Rock-paper-scissors duel"),
    "order.shout": ("喊话", "Shout"),
    "order.throw": ("出拳", "Throw"),
    "order.throw.rock": ("石头", "rock"),
    "order.throw.paper": ("布", "paper"),
    "order.throw.scissors": ("剪刀", "scissors"),
    "field.taunt": ("喊话内容", "Taunt"),
    "field.hand": ("出拳", "Hand"),
    "phase.setup": ("准备阶段", "Setup"),
    "phase.throwing": ("出拳阶段", "Throwing"),
    "phase.finished": ("游戏结束", "Game over"),
    "event.game_started": ("对决开始", "Duel started"),
    "event.round_opened": ("第 {round} 回合开始", "Round {round} opened"),
    "event.shouted": ("{name}喊话：{taunt}", "{name} shouts: {taunt}"),
    "event.throw_given": ("{name}出拳了", "{name} throws"),
    "event.throw_revised": ("{name}改了出拳", "{name} changes the throw"),
    "event.throw_withdrawn": ("{name}收回出拳", "{name} withdraws the throw"),
    "event.player_ready": ("{name}已准备好", "{name} is ready"),
    "event.round_closed": ("第 {round} 回合结束", "Round {round} closed"),
    "event.director_closed_round": (
        "导演结束了第 {round} 回合",
        "The director closed round {round}",
    ),
    "event.game_over": ("对决结束", "The duel is over"),
    "setting.rounds": ("回合数", "Rounds"),
    "setting.round_seconds": ("每回合时限（秒）", "Seconds per round"),
    "setting.early_close_when_ready": (
        "全员准备后提前结束回合",
        "Close a round early when all are ready",
    ),
    "tool.close_round": ("立即结束本回合", "Close the round now"),
}

ERRORS: dict[str, tuple[str, str]] = {
    "error.not_director": ("只有导演可以这样做。", "Only the director may do this."),
    "error.already_started": ("对决已经开始。", "The duel has already started."),
    "error.not_started": ("对决尚未开始。", "The duel has not started yet."),
    "error.game_finished": ("对决已经结束。", "The duel is over."),
    "error.not_a_player": ("你不是这场对决的玩家。", "You are not a player of this duel."),
    "error.no_sides": ("猜拳对决没有阵营。", "A duel has no sides."),
    "error.roster_full": ("对决只能有两名玩家。", "A duel takes exactly two players."),
    "error.roster_short": ("对决需要两名玩家。", "A duel needs two players."),
    "error.bad_order": ("指令格式不对。", "The order is malformed."),
    "error.duplicate_order_id": ("这个指令编号已被使用。", "That order id is taken."),
    "error.not_your_order": ("没有这条指令。", "There is no such order."),
    "error.order_not_pending": ("这条指令已不能修改。", "That order can no longer be changed."),
    "error.unsupported_step": ("对决不接受这种操作。", "A duel does not take this step."),
    "error.unknown_action": ("没有这个导演工具。", "There is no such director tool."),
    "error.not_understood": ("看不懂：{words}", "Not understood: {words}"),
}

PAGES: dict[str, tuple[str, str]] = {
    "page.scoreboard": ("比分", "Score"),
    "page.round_of": ("第 {round} / {rounds} 回合", "Round {round} of {rounds}"),
    "page.your_throw": ("你的出拳", "Your throw"),
    "page.no_throw": ("尚未出拳", "No throw yet"),
    "page.history": ("历史回合", "Past rounds"),
    "page.shouts": ("喊话", "Shouts"),
    "page.history_line": (
        "第 {round} 回合：{throws}，{result}",
        "Round {round}: {throws}; {result}",
    ),
    "page.winner_is": ("{name}胜", "{name} won"),
    "page.winner_by_lot": ("同拳，抽签{name}胜", "the same hand, {name} won by lot"),
    "page.nobody": ("无人得分", "nobody scored"),
    "page.hand_of": ("{name} {hand}", "{name} {hand}"),
    "page.ready": ("已准备", "ready"),
    "page.not_ready": ("未准备", "not ready"),
    "page.final_winner": ("对决胜者：{name}", "The duel's winner: {name}"),
    "page.final_draw": ("对决打平", "The duel is a draw"),
    "page.throws_now": ("本回合出拳", "This round's throws"),
    "page.field.hand": ("出什么", "Hand"),
    "page.field.taunt": ("喊话内容", "What you shout"),
    "page.tag.public": ("公开", "public"),
    "page.tag.hidden": ("隐藏", "hidden"),
    "page.you_play": (
        "你是 {name}，猜拳对决的一方。",
        "You are {name}, one of the duel's two players.",
    ),
    "page.text_order_hint": (
        "例如：出石头；喊 你输定了",
        "For example: throw rock; shout you lose",
    ),
    "page.your_orders": ("你本回合的指令", "Your orders this round"),
}

POSTS: dict[str, tuple[str, str]] = {
    "post.start_title": ("{title} · 对决开始", "{title} · the duel begins"),
    "post.start_intro": ("共 {rounds} 回合，对阵双方：", "{rounds} rounds, between:"),
    "post.round_open_title": ("猜拳对决 · 第 {round} 回合开始", "Duel · round {round} opens"),
    "post.deadline": ("本回合截止：{when}", "This round closes: {when}"),
    "post.round_title": ("猜拳对决 · 第 {round} 回合", "Duel · round {round}"),
    "post.round_line": ("{name}：{hand}", "{name}: {hand}"),
    "post.no_throw": ("未出拳", "no throw"),
    "post.closed_by_director": ("导演提前结束了本回合。", "The director closed the round early."),
    "post.round_winner": ("本回合胜者：{name}", "Round won by {name}"),
    "post.round_nobody": ("本回合无人得分", "Nobody scores this round"),
    "post.tie_broken": ("同拳平局，由抽签决定", "The same hand: a tie, broken by lot"),
    "post.col.player": ("玩家", "Player"),
    "post.col.points": ("得分", "Points"),
    "post.final_title": ("猜拳对决 · 终局", "Duel · final"),
    "post.final_winner": ("胜者：{name}", "Winner: {name}"),
    "post.final_draw": ("平局", "A draw"),
    "post.kind.round_opened": ("回合开始", "Round opened"),
    "post.kind.round_result": ("回合结果", "Round result"),
    "post.receipt.label": ("第 {round} 回合", "Round {round}"),
}

WORDS: dict[str, tuple[str, str]] = {**NAMES, **ERRORS, **PAGES, **POSTS}


def text(key: str, lang: str, **fields: object) -> str:
    """The word for ``key`` in ``lang`` ("zh" or "en"), filled."""
    zh, en = WORDS[key]
    chosen = en if lang == "en" else zh
    return chosen.format(**fields) if fields else chosen
