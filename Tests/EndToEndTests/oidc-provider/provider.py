"""A third-party OpenID Connect provider for the tests: django-oauth-toolkit (DOT) on Django,
configured in code, on SQLite in STATE_DIR (which must exist; the caller removes it), served on
127.0.0.1 at a port the system picks. Its first stdout line is
`listening on http://127.0.0.1:PORT/o` (the issuer); it stops on SIGTERM or SIGINT.

Its people (password `Passw0rd!`): erin@example.org, frank@example.org. Its clients:
  compliance-native    public, authorization code + PKCE, redirect http://127.0.0.1/ (any port, RFC 8252)
  compliance-web       confidential (secret `web-s3cret`), authorization code, same redirect
  compliance-ropc      public, password grant
  compliance-device    public, device code (RFC 8628; its verification page asks for the
                       login, then the code, then Accept)
The login page is DOT's own flow through Django's LoginView (a CSRF-protected form); consent
is skipped for these clients. id_tokens are RS256 and carry preferred_username and email;
a refresh returns a new id_token. `POST /test/revoke-refresh-tokens` (the tests' lever, not
DOT's) revokes every refresh token, as an administrator revoking sessions would.

usage: python provider.py STATE_DIR
"""
import json
import os
import signal
import sys
import tempfile
import threading
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

HERE = os.path.dirname(os.path.abspath(__file__))
STATE = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="oidc-provider-")


def private_key():
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()


def configure():
    from django.conf import settings

    settings.configure(
        DEBUG=False,
        SECRET_KEY=os.urandom(32).hex(),
        ALLOWED_HOSTS=["127.0.0.1", "localhost"],
        ROOT_URLCONF=__name__,
        INSTALLED_APPS=[
            "django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions", "oauth2_provider",
        ],
        MIDDLEWARE=[
            "django.contrib.sessions.middleware.SessionMiddleware",
            "django.middleware.csrf.CsrfViewMiddleware",
            "django.contrib.auth.middleware.AuthenticationMiddleware",
        ],
        TEMPLATES=[{
            "BACKEND": "django.template.backends.django.DjangoTemplates",
            "DIRS": [os.path.join(HERE, "templates")],
            "APP_DIRS": True,
            "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
        }],
        DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.path.join(STATE, "db.sqlite3")}},
        USE_TZ=True,
        LOGIN_URL="/accounts/login/",
        OAUTH2_PROVIDER={
            "OIDC_ENABLED": True,
            "OIDC_RSA_PRIVATE_KEY": private_key(),
            "PKCE_REQUIRED": False,  # per client below: the public ones send it anyway
            "SCOPES": {"openid": "OpenID Connect", "profile": "Profile", "email": "Email", "offline_access": "Refresh tokens", "notes.read": "Read notes"},
            "DEFAULT_SCOPES": ["openid"],
            "OAUTH2_VALIDATOR_CLASS": __name__ + ".Validator",
            "ACCESS_TOKEN_EXPIRE_SECONDS": 3600,
            # A refresh token stays usable after a refresh, so that one the daemon refuses
            # (the test double's forged answers) does not cost the person their session.
            "ROTATE_REFRESH_TOKEN": False,
            "ID_TOKEN_EXPIRE_SECONDS": 3600,
        },
        DEFAULT_AUTO_FIELD="django.db.models.AutoField",
    )
    import django

    django.setup()


configure()

from django.contrib.auth import views as auth_views  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.urls import include, path  # noqa: E402
from django.http import HttpResponseNotAllowed, JsonResponse  # noqa: E402
from django.views.decorators.csrf import csrf_exempt  # noqa: E402
from oauth2_provider.models import get_application_model, get_refresh_token_model  # noqa: E402
from oauth2_provider.oauth2_validators import OAuth2Validator  # noqa: E402
from oauth2_provider.settings import oauth2_settings  # noqa: E402
from oauth2_provider.views.oidc import ConnectDiscoveryInfoView  # noqa: E402


class Validator(OAuth2Validator):
    oidc_claim_scope = None  # every claim in every id_token

    def get_additional_claims(self, request):
        return {"preferred_username": request.user.username, "email": request.user.email, "name": request.user.get_full_name()}


@csrf_exempt
def revoke_refresh_tokens(request):
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    revoked = 0
    for token in get_refresh_token_model().objects.filter(revoked__isnull=True):
        token.revoke()
        revoked += 1
    return JsonResponse({"revoked": revoked})


class Discovery(ConnectDiscoveryInfoView):
    """DOT's discovery document, naming its device authorization endpoint too (it serves one
    but does not list it)."""

    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        document = json.loads(response.content)
        document["device_authorization_endpoint"] = request.build_absolute_uri("/o/device-authorization/")
        return JsonResponse(document)


urlpatterns = [
    path("test/revoke-refresh-tokens", revoke_refresh_tokens),
    path("o/.well-known/openid-configuration", Discovery.as_view()),
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    path("accounts/login/", auth_views.LoginView.as_view(template_name="login.html"), name="login"),
]


def populate():
    call_command("migrate", verbosity=0, interactive=False)
    for upn, name in [("erin@example.org", "Erin Example"), ("frank@example.org", "Frank Example")]:
        first, last = name.split(" ")
        User.objects.create_user(username=upn, email=upn, password="Passw0rd!", first_name=first, last_name=last)
    Application = get_application_model()
    common = dict(redirect_uris="http://127.0.0.1/", skip_authorization=True, algorithm=Application.RS256_ALGORITHM)
    Application.objects.create(
        client_id="compliance-native", name="Compliance (native)", client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE, **common)
    Application.objects.create(
        client_id="compliance-web", client_secret="web-s3cret", name="Compliance (web)", client_type=Application.CLIENT_CONFIDENTIAL,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE, **common)
    Application.objects.create(
        client_id="compliance-ropc", name="Compliance (password grant)", client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_PASSWORD, **common)
    Application.objects.create(
        client_id="compliance-device", name="Compliance (device code)", client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_DEVICE_CODE, **common)


class Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class QuietHandler(WSGIRequestHandler):
    def log_message(self, format, *args):
        sys.stderr.write("%s\n" % (format % args))


def main():
    populate()
    from django.core.wsgi import get_wsgi_application

    server = make_server("127.0.0.1", 0, get_wsgi_application(), server_class=Server, handler_class=QuietHandler)
    port = server.server_address[1]
    oauth2_settings.OAUTH_DEVICE_VERIFICATION_URI = f"http://127.0.0.1:{port}/o/device/"
    print(f"listening on http://127.0.0.1:{port}/o", flush=True)

    def stop(*_):
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    server.serve_forever()


if __name__ == "__main__":
    main()
