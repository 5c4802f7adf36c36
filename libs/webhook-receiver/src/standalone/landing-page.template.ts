export interface LandingPageModel {
  /** Where this server is reached, e.g. `http://localhost:7860` (derived from the request). */
  baseUrl: string;
  routes: string[];
  secured: boolean;
  /** Hub base URL for the registration example; a shell variable placeholder when unknown. */
  hubUrl?: string;
}

const SAMPLE_PAYLOAD = JSON.stringify({
  event: { action: 'update', scope: 'repo' },
  repo: {
    type: 'model',
    name: 'owner/name',
    id: '0123456789abcdef01234567',
    private: false,
    url: { web: 'https://hub.example/owner/name', api: 'https://hub.example/api/models/owner/name' },
    owner: { id: '0123456789abcdef01234567' },
  },
  webhook: { id: '0123456789abcdef01234567', version: 3 },
});

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function testCommand(url: string, secured: boolean): string {
  return [
    `curl -X POST '${url}'`,
    `  -H 'Content-Type: application/json'`,
    ...(secured ? [`  -H 'X-Webhook-Secret: <your secret>'`] : []),
    `  -d '${SAMPLE_PAYLOAD}'`,
  ].join(' \\\n');
}

function registerCommand(hubUrl: string, url: string, secured: boolean): string {
  const body = {
    watched: [{ type: 'model', name: 'owner/name' }],
    domains: ['repo', 'discussion'],
    url,
    secret: secured ? '<the same secret as this server>' : '<choose a secret, and set it here too>',
  };
  return [
    `curl -X POST "${hubUrl}/api/settings/webhooks"`,
    `  -H "Authorization: Bearer $HUB_TOKEN"`,
    `  -H 'Content-Type: application/json'`,
    `  -d '${JSON.stringify(body)}'`,
  ].join(' \\\n');
}

/**
 * The landing page of spec 4.8 rule 6: what this server is, how to test each route and how to
 * point a hub webhook at it. The secret itself is never rendered, only whether one is set.
 * Every interpolated value is escaped: the base URL comes from the request's Host header.
 */
export function renderLandingPage(model: LandingPageModel): string {
  const hubUrl = model.hubUrl ?? '$HUB_URL';
  const firstRoute = model.routes[0] ?? '<name>';
  const routes = model.routes.length
    ? model.routes
        .map((name) => {
          const url = `${model.baseUrl}/webhooks/${name}`;
          return `<li class="route"><h3><span class="verb">POST</span> <code>/webhooks/${escapeHtml(name)}</code></h3>
<p>Test it:</p><pre><code>${escapeHtml(testCommand(url, model.secured))}</code></pre></li>`;
        })
        .join('\n')
    : '<li class="route"><p>No handler registered yet: call <code>server.add(handler)</code> before <code>listen()</code>.</p></li>';
  const security = model.secured
    ? `<p class="status ok"><strong>A secret is set.</strong> Requests must carry it in the <code>X-Webhook-Secret</code> header
(401 when missing, 403 when wrong); Standard Webhooks signatures (<code>webhook-signature</code>) are verified when present.</p>`
    : `<p class="status warn"><strong>No secret is set: these routes accept requests from anyone.</strong>
Set <code>WEBHOOK_SECRET</code> (or the <code>secret</code> option) and give the same value to the hub.</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Webhooks receiver</title>
<style>
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;background:#f6f7f9;color:#1f2328}
main{max-width:860px;margin:0 auto;padding:32px 24px 48px}
h1{font-size:26px;margin:0 0 4px}h2{font-size:18px;margin:32px 0 8px}h3{font-size:15px;margin:0 0 6px}
.lead{color:#57606a;margin:0 0 16px}
.status{padding:10px 14px;border-radius:8px;margin:0}.ok{background:#dafbe1;border:1px solid #aceebb}
.warn{background:#fff8c5;border:1px solid #eed888}
ul{list-style:none;padding:0;margin:0}.route{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:14px 16px;margin:0 0 12px}
.route p{margin:4px 0}.verb{background:#0969da;color:#fff;border-radius:4px;padding:1px 6px;font-size:12px;vertical-align:2px}
pre{background:#1f2328;color:#e6edf3;padding:12px 14px;border-radius:6px;white-space:pre-wrap;overflow-wrap:anywhere;font-size:12.5px;line-height:1.45;margin:6px 0 0}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}p code,h3 code,li>code{background:#eaeef2;padding:1px 5px;border-radius:4px}
pre code{background:none;padding:0}
</style></head>
<body><main>
<h1>Webhooks receiver</h1>
<p class="lead">This server receives webhook deliveries from the hub (payload version 3) and hands each to a handler.
Each handler has its own route; a delivery is answered with the handler's JSON.</p>
${security}
<h2>Routes (${model.routes.length})</h2>
<ul>${routes}</ul>
<h2>Register a webhook on the hub</h2>
<p>Create the webhook with a token of the account that owns it${model.hubUrl ? '' : " (set <code>HUB_URL</code> to the hub's address)"}, <code>HUB_TOKEN</code> holding the token; replace <code>owner/name</code> with the repository to watch:</p>
<pre><code>${escapeHtml(registerCommand(hubUrl, `${model.baseUrl}/webhooks/${firstRoute}`, model.secured))}</code></pre>
<p>The hub answers <code>{"webhook": {...}}</code> and delivers each event to that URL with <code>X-Webhook-Secret</code>
and Standard Webhooks signature headers.</p>
</main></body></html>`;
}
