// Report (the App Privacy Report): per app and per day, the photos it opened or was handed, with times.
import { get } from './api.js';
import { element } from './dom.js';

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
