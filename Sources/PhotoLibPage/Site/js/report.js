// Report (the App Privacy Report): per app and per day, the photos it opened or was handed, with times.
import { get } from './api.js';
import { element } from './dom.js';
import { nameOf } from './names.js';

export async function showReport(main) {
  const report = await get('/api/report?days=7');
  const byApp = new Map();
  for (const entry of [...report.entries].reverse()) {   // newest first
    const day = new Date(entry.at * 1000).toLocaleDateString('en', { weekday: 'long', day: 'numeric', month: 'long' });
    if (!byApp.has(entry.app)) byApp.set(entry.app, new Map());
    const days = byApp.get(entry.app);
    if (!days.has(day)) days.set(day, []);
    days.get(day).push(entry);
  }
  const note = report.watchingOpens
    ? `What each app opened through its view, or was handed by a pick, in the last 7 days (kept ${Math.round(report.retention / 86400)} days).`
    : 'Opens through views are not watched ([report] watch_opens = false); only picks are listed.';
  main.replaceChildren(
    element('h2', { text: 'App Privacy Report' }),
    element('p', { class: 'note', text: note }),
    await oneTimeSelection(report.entries),
    byApp.size === 0
      ? element('p', { text: 'No app opened or was handed a photo in the last 7 days.' })
      : element('div', { class: 'report' }, [...byApp].map(([app, days]) => element('section', { class: 'report-app', 'data-app': app },
        element('h3', { text: app }),
        [...days].map(([day, entries]) => element('div', { class: 'report-day' },
          element('h4', { class: 'section', text: day }),
          element('ul', { class: 'report-list' }, entries.map((entry) => {
            const name = (entry.path ?? entry.asset).split('/').pop();
            const time = new Date(entry.at * 1000).toLocaleTimeString('en', { hour: '2-digit', minute: '2-digit' });
            return element('li', { class: 'report-entry', 'data-asset': entry.asset },
              element('img', { src: `/thumbs/${encodeURIComponent(entry.asset)}`, alt: '', loading: 'lazy' }),
              element('span', { text: `${name} — ${entry.how === 'pick' ? 'picked' : 'opened'} at ${time}` }));
          }))))))),
  );
}

// iOS's "one-time photo selection": the apps that were handed photos by a pick (the file dialog,
// or a pick request) rather than seeing them in a view: how many, in how many picks, and when last.
async function oneTimeSelection(entries) {
  const picks = new Map();
  for (const entry of entries.filter((candidate) => candidate.how === 'pick')) {
    const app = picks.get(entry.app) ?? { photos: 0, requests: new Set(), last: 0 };
    app.photos += 1;
    app.requests.add(entry.request ?? entry.at);
    app.last = Math.max(app.last, entry.at);
    picks.set(entry.app, app);
  }
  if (picks.size === 0) return null;
  const names = new Map(await Promise.all([...picks.keys()].map(async (app) => [app, await nameOf(app)])));
  const rows = [...picks].sort((a, b) => b[1].last - a[1].last).map(([app, { photos, requests, last }]) => {
    const when = new Date(last * 1000).toLocaleDateString('en', { weekday: 'long', day: 'numeric', month: 'long' });
    const times = requests.size === 1 ? 'once' : `in ${requests.size} picks`;
    return element('li', { class: 'check', 'data-app': app },
      element('strong', { text: names.get(app) }),
      ` — ${photos} ${photos === 1 ? 'photo' : 'photos'} handed ${times}, last on ${when}; it keeps no access to your library.`);
  });
  return element('section', { class: 'one-time', 'aria-label': 'One-time photo selection' },
    element('h3', { text: 'Apps with one-time photo selection' }),
    element('ul', { class: 'checks' }, rows));
}
