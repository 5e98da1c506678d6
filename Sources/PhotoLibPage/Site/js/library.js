// Library: how photolibd is doing, in plain words (what status and doctor say).
import { get } from './api.js';
import { element } from './dom.js';

const marks = { pass: 'OK', warn: 'Check', fail: 'Problem' };

export async function showLibrary(main) {
  const health = await get('/api/library');
  main.replaceChildren(...[
    element('h2', { text: 'Your library' }),
    element('p', { class: `state state-${health.state}`, text: health.summary }),
    element('p', { class: 'note', text: `${health.library}: ${health.assets.toLocaleString('en')} photos and videos in ${health.albums} albums, ${health.apps} apps.` }),
    health.unreadable.length ? element('section', {},
      element('h3', { text: 'Folders that cannot be read right now' }),
      element('ul', {}, health.unreadable.map((path) => element('li', { text: path || '(the library itself)' })))) : null,
    health.withheld.length ? element('section', {},
      element('h3', { text: 'Kept from apps without location' }),
      element('p', { class: 'note', text: 'Whether these hold a location cannot be told, so apps that may not see locations do not get them.' }),
      element('ul', {}, health.withheld.map((file) => element('li', { text: `${file.path}: ${file.why}` })))) : null,
    element('h3', { text: 'Checks' }),
    element('ul', { class: 'checks' }, health.checks.map((check) => element('li', { class: `check check-${check.outcome}` },
      element('strong', { text: `${marks[check.outcome] ?? check.outcome}: ` }),
      element('span', { text: check.detail }),
      check.advice ? element('p', { class: 'note', text: `What to do: ${check.advice}` }) : null))),
  ].filter(Boolean));
}
