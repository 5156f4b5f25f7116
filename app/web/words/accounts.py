"""The accounts' words: "my games", passkeys, recovery codes, personal tokens, the record."""

from __future__ import annotations

ACCOUNT_WORDS: dict[str, tuple[str, str]] = {
    "my_games": ("我的游戏", "My games"),
    "my_games_hint": (
        "这个浏览器持有席位的游戏。登录账户后，换了设备也能找到。",
        "The games this browser holds a seat in. Sign in to an account to find them on any device.",
    ),
    "my_games_none": (
        "这个浏览器还没有加入任何游戏。",
        "This browser has not joined any game yet.",
    ),
    "role_director": ("导演", "director"),
    "role_co_director": ("副导演", "co-director"),
    "role_player": ("玩家", "player"),
    "as_player": ("玩家：{name}", "player: {name}"),
    "open_seat": ("打开", "Open"),
    "account": ("账户", "Account"),
    "account_link": ("我的账户", "My account"),
    "account_title": ("账户：{name}", "Account: {name}"),
    "account_intro": (
        "账户是可选的：用手机或电脑上的通行密钥登录，无需密码和邮箱。"
        "登录后，你在各个游戏里的席位会归到账户下，换了设备也能找到。",
        "Accounts are optional: sign in with a passkey on your phone or computer, with no "
        "password and no e-mail. Signed in, your seats in every game gather under the account "
        "and follow you to any device.",
    ),
    "register": ("注册新账户", "Create an account"),
    "register_name": ("名字（导演会看到）", "Name (directors see it)"),
    "register_button": ("用通行密钥注册", "Register with a passkey"),
    "sign_in": ("登录", "Sign in"),
    "sign_in_button": ("用通行密钥登录", "Sign in with a passkey"),
    "sign_out": ("退出登录", "Sign out"),
    "recovery_sign_in": ("用恢复码登录", "Sign in with a recovery code"),
    "recovery_code": ("恢复码", "Recovery code"),
    "recovery_button": ("用恢复码登录", "Use the recovery code"),
    "passkey_working": ("请在弹出的窗口中确认通行密钥……", "Confirm the passkey in the prompt…"),
    "passkey_unsupported": (
        "这个浏览器不支持通行密钥。",
        "This browser does not support passkeys.",
    ),
    "passkey_cancelled": ("没有完成通行密钥操作。", "The passkey was not confirmed."),
    "passkeys": ("通行密钥", "Passkeys"),
    "passkey_line": ("添加于 {at}", "added {at}"),
    "passkey_used": ("上次使用 {at}", "last used {at}"),
    "passkey_add": ("为这台设备添加通行密钥", "Add a passkey for this device"),
    "recovery_codes": ("恢复码", "Recovery codes"),
    "recovery_codes_left": (
        "还剩 {n} 个未用的恢复码。丢了所有设备时，用一个恢复码登录，再添加新的通行密钥。",
        "{n} unused recovery codes left. If you lose every device, sign in with one and add a "
        "new passkey.",
    ),
    "recovery_codes_new": ("生成新的恢复码", "New recovery codes"),
    "recovery_codes_once": (
        "请把这些恢复码抄下或存好：它们只显示这一次，每个只能用一次。",
        "Write these recovery codes down or store them: they are shown this once, and each "
        "works once.",
    ),
    "continue": ("继续", "Continue"),
    "tokens": ("个人令牌", "Personal tokens"),
    "tokens_intro": (
        "给你自己的脚本或机器人用：一个令牌可在你所有的游戏里行动。",
        "For your own script or bot: one token acts in all your games.",
    ),
    "token_name": ("令牌名称", "Token name"),
    "token_scope_read": ("查看", "read"),
    "token_scope_play": ("行动", "play"),
    "token_scope_direct": ("主持", "direct"),
    "token_create": ("创建令牌", "Create token"),
    "token_revoke": ("撤销", "Revoke"),
    "token_shown_once": (
        "新令牌（只显示这一次，请立即保存）：",
        "The new token (shown this once; save it now):",
    ),
    "tokens_none": ("还没有个人令牌。", "No personal tokens yet."),
    "record": ("游戏记录", "Record"),
    "record_line": (
        "参加 {played} 局，完成 {finished} 局，中途退出 {dropped} 局。",
        "Played {played}, finished {finished}, dropped {dropped}.",
    ),
    "record_deadlines": (
        "按时下指令或准备：{met} / {total} 个截止时间。",
        "Orders or ready in time: {met} of {total} deadlines.",
    ),
    "record_no_deadlines": (
        "还没有已结束游戏的截止时间可统计。",
        "No finished game's deadlines yet.",
    ),
    "share_record": (
        "允许导演在审核我的报名时查看我的游戏记录",
        "Let directors reviewing my sign-ups see my record",
    ),
    "record_back": ("回到控制台", "Back to the console"),
    "record_for_game": ("报名的游戏", "Signed up for"),
    "record_computed": (
        "由已结束游戏的记录算出，非手填；玩家同意后才显示。",
        "Computed from finished games' own records, never typed in; shown with the player's "
        "consent only.",
    ),
    "save": ("保存", "Save"),
    "delete_account": ("删除账户", "Delete the account"),
    "delete_account_hint": (
        "删除后，你在各游戏中的席位照旧保留（成为普通席位），个人令牌立即失效。",
        "Your seats stay in their games as plain seats; personal tokens stop working at once.",
    ),
    "delete_confirm": ("我确定要删除这个账户", "Yes, delete this account"),
    "account_deleted": ("账户已删除。", "The account was deleted."),
    "account_saved": ("已保存。", "Saved."),
    "token_revoked": ("令牌已撤销。", "The token was revoked."),
}
