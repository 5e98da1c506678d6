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
    element('h2', { text: 'Apps that can see your photos' }),
    apps.length === 0
      ? element('p', { class: 'note', text: 'No app is registered yet, and no installed Flatpak app can reach your Pictures folder.' })
      : element('ul', { class: 'apps' }, apps.map(card)),
  );
}

function card(app) {
  const access = element('select', { 'aria-label': `Access for ${app.name}`, onchange: async (event) => {
    const when = app.takesEffect ? ` ${app.takesEffect}` : '';
    const limits = event.target.value !== 'authorized';
    // An app that sees the whole home loses more than photos: the person says yes to exactly that first.
    if (limits && app.loss && !confirm(app.loss)) {
      event.target.value = app.readWrite;
      return;
    }
    await change(`/api/apps/${encodeURIComponent(app.app)}/access`, { status: event.target.value, confirm: limits && !!app.loss },
      `${app.name}: access changed.${when}`);
  } }, accessChoices.map(([value, words]) => element('option', { value, selected: app.readWrite === value, text: words })));
  if (!accessChoices.some(([value]) => value === app.readWrite)) {
    access.prepend(element('option', { value: app.readWrite, selected: true, disabled: true, text: 'Not decided yet' }));
  }
  const location = app.registered ? element('select', { 'aria-label': `Location for ${app.name}`, onchange: async (event) => {
    await change(`/api/apps/${encodeURIComponent(app.app)}/location`, { location: event.target.value }, `${app.name}: location ${event.target.value}.`);
  } }, [['precise', 'Precise location'], ['none', 'No location']].map(([value, words]) =>
    element('option', { value, selected: app.location === value, text: words }))) : null;
  // What leaves with what it picks, when the person does not choose in the pick's sheet.
  const captions = app.registered ? element('select', { 'aria-label': `Captions and people for ${app.name}`, onchange: async (event) => {
    await change(`/api/apps/${encodeURIComponent(app.app)}/location`, { captions: event.target.value },
      `${app.name}: captions and people's names ${event.target.value === 'shared' ? 'leave with' : 'are taken out of'} what it picks.`);
  } }, [['removed', 'Removed'], ['shared', 'Shared']].map(([value, words]) =>
    element('option', { value, selected: app.captions === value, text: words }))) : null;
  const ends = app.readWriteEndsAt
    ? element('p', { class: 'note', text: `Until ${new Date(app.readWriteEndsAt * 1000).toLocaleString('en')}, then ${app.readWriteReturnsTo}` })
    : null;
  const icon = app.icon
    ? element('img', { class: 'app-icon', src: app.icon, alt: '', width: 48, height: 48 })
    : element('span', { class: 'app-icon placeholder', 'aria-hidden': 'true', text: app.name.slice(0, 1).toUpperCase() });
  return element('li', { class: `app ${app.level}`, 'data-app': app.app },
    element('div', { class: 'app-head' }, icon,
      element('div', {},
        element('h3', { text: app.name }),
        element('p', { class: 'identity', text: app.identity }))),
    app.purpose ? element('p', { class: 'purpose', text: app.purpose }) : null,
    element('p', { class: 'access', text: app.access }),
    ends,
    app.takesEffect ? element('p', { class: 'note', text: app.takesEffect }) : null,
    app.disk ? element('p', { class: 'note disk', text: app.disk }) : null,
    app.caveat ? element('p', { class: 'note caveat', text: app.caveat }) : null,
    element('div', { class: 'controls' },
      labelled('Access', access),
      location ? labelled('Location', location) : null,
      captions ? labelled('Captions and people in picks', captions) : null,
      app.readWrite === 'limited'
        ? element('a', { href: `#app/${encodeURIComponent(app.app)}`, class: 'edit', text: 'Edit Selected Photos…' })
        : null,
      app.registered ? element('button', { class: 'danger', type: 'button', text: 'Remove', 'aria-label': `Remove ${app.name}`, onclick: async () => {
        const words = app.flatpak
          ? `Remove ${app.name}? From its next start it reads your Pictures folder through its own Flatpak permission again.`
          : `Remove ${app.name}? Its view and grants go at once.`;
        if (!confirm(words)) return;
        await change(`/api/apps/${encodeURIComponent(app.app)}/remove`, {}, `${app.name} removed.`);
      } }) : null,
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
