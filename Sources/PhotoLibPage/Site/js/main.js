// The page's router: #apps, #app/ID (edit selected photos), #report, #library.
import { session } from './api.js';
import { showApps } from './apps.js';
import { showSelection } from './selection.js';
import { showReport } from './report.js';
import { showLibrary } from './library.js';
import { notice } from './notice.js';
import { followRequests, focusRequest } from './requests.js';

async function route() {
  const main = document.getElementById('main');
  const hash = decodeURIComponent(location.hash.slice(1));
  try {
    if (hash.startsWith('app/')) await showSelection(main, hash.slice(4));
    else if (hash === 'report') await showReport(main);
    else if (hash === 'library') await showLibrary(main);
    else if (hash.startsWith('request/')) { await showApps(main); focusRequest(Number(hash.slice(8))); }
    else await showApps(main);
    for (const link of document.querySelectorAll('nav a')) {
      link.toggleAttribute('aria-current', link.getAttribute('href') === `#${hash.split('/')[0] || 'apps'}`);
    }
  } catch (error) {
    notice(error.message);
  }
}

async function start() {
  // The session and the first screen are asked for together: a page that waited for one before
  // the other would add a round trip to every opening.
  const asked = session();
  const shown = route();
  let info;
  try {
    info = await asked;
    document.getElementById('library').textContent = `${info.library} · ${Number(info.assets).toLocaleString('en')} photos and videos`;
  } catch (error) {
    await shown;
    document.getElementById('main').textContent = error.message;
    return;
  }
  followRequests(Number(info.assets), () => {
    // Only the Apps list follows: an editor open on an app keeps what the person is ticking.
    const hash = location.hash.slice(1);
    if (hash !== '' && hash !== 'apps') return;
    clearTimeout(start.pending);
    start.pending = setTimeout(route, 150);  // a burst of events redraws once
  });
  window.addEventListener('hashchange', route);
  await shown;
}

start();
