from django.urls import path

from . import views

app_name = "jobs"

urlpatterns = [
    path("", views.jobs, name="jobs"),
    path("<int:pk>/", views.job, name="job"),
]
