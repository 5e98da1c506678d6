// The page's router: #apps, #app/ID (edit selected photos).
import { session } from './api.js';
import { showApps } from './apps.js';
import { showSelection } from './selection.js';
import { notice } from './notice.js';
import { followRequests } from './requests.js';

async function route() {
  const main = document.getElementById('main');
  const hash = decodeURIComponent(location.hash.slice(1));
  try {
    if (hash.startsWith('app/')) await showSelection(main, hash.slice(4));
    else await showApps(main);
  } catch (error) {
    notice(error.message);
  }
}

async function start() {
  let info;
  try {
    info = await session();
    document.getElementById('library').textContent = `${info.library} · ${Number(info.assets).toLocaleString('en')} photos and videos`;
  } catch (error) {
    document.getElementById('main').textContent = error.message;
    return;
  }
  followRequests(Number(info.assets));
  window.addEventListener('hashchange', route);
  await route();
}

start();
