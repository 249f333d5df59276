from django.urls import path

from .views import desk

app_name = "clubs"

urlpatterns = [
    path("", desk.club_list, name="list"),
    path("join/<slug:token>/", desk.join, name="join"),  # token_urlsafe: a slug's letters
    path("<int:pk>/", desk.desk, name="desk"),
    path("<int:pk>/edit/", desk.edit, name="edit"),
    path("<int:pk>/invite/new/", desk.invite_new, name="invite_new"),
    path("<int:pk>/leave/", desk.leave, name="leave"),
    path("<int:pk>/concours/attach/", desk.attach, name="attach"),
    path("<int:pk>/concours/detach/", desk.detach, name="detach"),
    path("<int:pk>/concours/publish/", desk.publish, name="publish"),
    path("<int:pk>/seasons/new/", desk.season_new, name="season_new"),
    path("<int:pk>/seasons/<int:season>/", desk.season_edit, name="season_edit"),
    path("<int:pk>/seasons/<int:season>/delete/", desk.season_delete, name="season_delete"),
    path("<int:pk>/people/", desk.people, name="people"),
    path("<int:pk>/people/merge/", desk.merge, name="merge"),
    path("<int:pk>/people/find/", desk.find_pair, name="find_pair"),
]
