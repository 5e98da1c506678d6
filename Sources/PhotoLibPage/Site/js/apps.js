// Apps (Settings ▸ Privacy ▸ Photos): access in the person's words, location, and remove.
import { get, post } from './api.js';
import { element, labelled } from './dom.js';
import { notice } from './notice.js';

const accessChoices = [
  ['denied', 'None'],
  ['limited', 'Selected Photos'],
  ['authorized', 'Full Access'],
];

export async function showApps(main) {
  const { apps } = await get('/api/apps');
  main.replaceChildren(
    element('h2', { text: 'Apps that asked for your photos' }),
    apps.length === 0
      ? element('p', { class: 'note', text: 'No app is registered yet; add one with photolibctl app add.' })
      : element('ul', { class: 'apps' }, apps.map(card)),
  );
}

function card(app) {
  const access = element('select', { 'aria-label': `Access for ${app.app}`, onchange: async (event) => {
    await change(`/api/apps/${encodeURIComponent(app.app)}/access`, { status: event.target.value }, `${app.app}: access changed.`);
  } }, accessChoices.map(([value, words]) => element('option', { value, selected: app.readWrite === value, text: words })));
  if (!accessChoices.some(([value]) => value === app.readWrite)) {
    access.prepend(element('option', { value: app.readWrite, selected: true, disabled: true, text: 'Not decided yet' }));
  }
  const location = element('select', { 'aria-label': `Location for ${app.app}`, onchange: async (event) => {
    await change(`/api/apps/${encodeURIComponent(app.app)}/location`, { location: event.target.value }, `${app.app}: location ${event.target.value}.`);
  } }, [['precise', 'Precise location'], ['none', 'No location']].map(([value, words]) =>
    element('option', { value, selected: app.location === value, text: words })));
  const ends = app.readWriteEndsAt
    ? element('p', { class: 'note', text: `Until ${new Date(app.readWriteEndsAt * 1000).toLocaleString('en')}, then ${app.readWriteReturnsTo}` })
    : null;
  return element('li', { class: `app ${app.level}`, 'data-app': app.app },
    element('h3', { text: app.app }),
    element('p', { class: 'purpose', text: app.purpose || 'No purpose given.' }),
    element('p', { class: 'access', text: app.access }),
    ends,
    element('p', { class: 'note', text: `Runs as uid ${app.uid}` }),
    element('div', { class: 'controls' },
      labelled('Access', access),
      labelled('Location', location),
      app.readWrite === 'limited'
        ? element('a', { href: `#app/${encodeURIComponent(app.app)}`, class: 'edit', text: 'Edit Selected Photos…' })
        : null,
      element('button', { class: 'danger', type: 'button', text: 'Remove', 'aria-label': `Remove ${app.app}`, onclick: async () => {
        if (!confirm(`Remove ${app.app}? Its view and grants go at once.`)) return;
        await change(`/api/apps/${encodeURIComponent(app.app)}/remove`, {}, `${app.app} removed.`);
      } }),
    ),
  );
}

async function change(path, body, done) {
  try {
    await post(path, body);
    notice(done);
  } catch (error) {
    notice(error.message);
  }
  await showApps(document.getElementById('main'));
}
