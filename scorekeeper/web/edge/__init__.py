"""The edge: where HTTP meets the layers below. What each route needs and the check every request passes
(access), who is calling (caller) and the browser's session (sessions), the request read before any route
(inputs), refusals as HTTP (errors), the request's language (i18n), the HTML forms, idempotency keys, the
presenter of a request, the security headers, and the installable app's service worker. Pages and the API
go through it; the domain and the services never see it.
"""
