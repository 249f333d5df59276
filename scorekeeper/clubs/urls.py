from django.urls import path

from . import views

app_name = "clubs"

urlpatterns = [
    path("", views.club_list, name="list"),
    path("join/<slug:token>/", views.join, name="join"),  # token_urlsafe: a slug's letters
    path("<int:pk>/", views.desk, name="desk"),
    path("<int:pk>/edit/", views.edit, name="edit"),
    path("<int:pk>/invite/new/", views.invite_new, name="invite_new"),
    path("<int:pk>/leave/", views.leave, name="leave"),
    path("<int:pk>/concours/attach/", views.attach, name="attach"),
    path("<int:pk>/concours/detach/", views.detach, name="detach"),
    path("<int:pk>/concours/publish/", views.publish, name="publish"),
    path("<int:pk>/seasons/new/", views.season_new, name="season_new"),
    path("<int:pk>/seasons/<int:season>/", views.season_edit, name="season_edit"),
    path("<int:pk>/seasons/<int:season>/delete/", views.season_delete, name="season_delete"),
    path("<int:pk>/people/", views.people, name="people"),
    path("<int:pk>/people/merge/", views.merge, name="merge"),
    path("<int:pk>/people/find/", views.find_pair, name="find_pair"),
]
