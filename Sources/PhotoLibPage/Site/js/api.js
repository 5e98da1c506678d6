// The page's one way to the server: JSON in, JSON out, the CSRF token on every change.
let csrf = null;

export async function session() {
  const answer = await get('/api/session');
  csrf = answer.csrf;
  return answer;
}

export async function get(path) {
  const response = await fetch(path, { credentials: 'same-origin' });
  return unwrap(response);
}

export async function post(path, body) {
  const response = await fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf ?? '' },
    body: JSON.stringify(body ?? {}),
  });
  return unwrap(response);
}

async function unwrap(response) {
  const text = await response.text();
  let value = null;
  try { value = text ? JSON.parse(text) : null; } catch { value = null; }
  if (!response.ok) throw new Error(value?.error ?? `The page's server answered ${response.status}.`);
  return value;
}
