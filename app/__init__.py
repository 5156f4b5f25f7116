"""forumplay: director-moderated forum play."""
