/** A minimal cookie jar for one host: what a browser would send back to the provider. */
class Jar {
  private readonly cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0) this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

async function step(jar: Jar, url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string> | undefined), cookie: jar.header() } });
  jar.take(response);
  return response;
}

function locationOf(response: Response, base: string): string {
  const location = response.headers.get('location');
  if (!location) throw new Error(`expected a redirect, got ${response.status}`);
  return new URL(location, base).href;
}

/**
 * Signs `login` in at the test provider as a browser would, starting from the authorization
 * address filemgr redirected to: the dev login form (any password), then the redirects until the
 * provider sends the browser to a URL outside itself; that URL (filemgr's callback) is returned.
 */
export async function signInAtProvider(authorizationUrl: string, login: string): Promise<string> {
  const jar = new Jar();
  const origin = new URL(authorizationUrl).origin;
  let url = authorizationUrl;
  for (let hops = 0; hops < 10; hops++) {
    if (new URL(url).origin !== origin) return url;
    const response = await step(jar, url);
    if (response.status >= 300 && response.status < 400) {
      url = locationOf(response, url);
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`the provider answered ${response.status} without a form: ${html.slice(0, 300)}`);
    const body = new URLSearchParams({ prompt: 'login', login, password: 'any password' });
    const submitted = await step(jar, new URL(action.replace(/&amp;/g, '&'), url).href, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    url = locationOf(submitted, url);
  }
  throw new Error('the provider never redirected back');
}
