"""Runs INSIDE the Misago venv (Django configured by DJANGO_SETTINGS_MODULE): migrate the
fresh database, then create the test forum's accounts and category. Prints one JSON line.

Accounts: ``bot`` (a Moderator, so Misago's 3-second flood protection does not apply),
two players (an extra role lifts flood protection for them too: tests must not sleep),
and a superuser. Passwords come from the environment (made up per test session).
"""

import json
import os

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from misago.acl.cache import clear_acl_cache  # noqa: E402
from misago.acl.models import Role  # noqa: E402
from misago.categories.models import Category, RoleCategoryACL  # noqa: E402
from misago.users.avatars import dynamic  # noqa: E402

call_command("migrate", interactive=False, verbosity=0)

User = get_user_model()
passwords = json.loads(os.environ["FORUMPLAY_MISAGO_PASSWORDS"])


def give_role(user, role):
    user.roles.add(role)
    user.update_acl_key()
    user.save(update_fields=["acl_key"])


moderator = Role.objects.get(name="Moderator")
no_flood = Role.objects.create(
    name="Test players: no flood limit",
    permissions={"misago.threads.permissions.threads": {"can_omit_flood_protection": True}},
)

accounts = {}
for name, password in passwords.items():
    email = f"{name}@forumplay.test"
    if name == "admin":
        user = User.objects.create_superuser(name, email, password)
    else:
        user = User.objects.create_user(name, email, password)
    # Misago's pages expect every user to have an avatar (sign-up makes one; the default,
    # Gravatar, would need the network).
    dynamic.set_avatar(user)
    if name == "bot":
        give_role(user, moderator)
    elif name != "admin":
        give_role(user, no_flood)
    accounts[name] = user.pk

root = Category.objects.root_category()
template = Category.objects.get(slug="first-category")
category = Category(name="论坛戏 forumplay", slug="forumplay")
category.insert_at(root, position="last-child", save=True)
RoleCategoryACL.objects.bulk_create(
    RoleCategoryACL(role_id=acl.role_id, category=category, category_role_id=acl.category_role_id)
    for acl in template.category_role_set.all()
)
Category.objects.clear_cache()
clear_acl_cache()

print(json.dumps({"accounts": accounts, "category_id": category.pk}))
