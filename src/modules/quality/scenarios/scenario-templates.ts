/**
 * The ready-made test scenarios (issue 28): the callers every outbound campaign meets. Each has a
 * persona for the language model to play, success criteria in plain words, and the lines a
 * scripted persona says when no model is configured (one per turn; after the last it hangs up).
 * The criteria are worded so that the offline checks (offline-checks.ts) can judge most of them
 * from the transcript and the agent's tool calls alone.
 */
export interface Persona {
  who: string;
  goal: string;
  style: string;
  language: string;
}

export interface ScenarioTemplate {
  key: string;
  name: string;
  persona: Persona;
  criteria: string[];
  /** What the scripted persona says, turn by turn, without a model. */
  script: string[];
}

export const SCENARIO_TEMPLATES: readonly ScenarioTemplate[] = [
  {
    key: 'busy_person',
    name: 'Busy person',
    persona: { who: 'A busy professional answering between two meetings', goal: 'Get a call back at a better time rather than talk now', style: 'Hurried, short answers', language: 'English' },
    criteria: ['The agent offers a callback time', 'The agent keeps its answers short', 'The agent ends the call politely'],
    script: ['Hello? I only have a second, I am about to go into a meeting.', 'Can you call me back tomorrow at 10am?', 'Yes, tomorrow at 10 works. Bye.'],
  },
  {
    key: 'asks_to_be_removed',
    name: 'Asks to be removed',
    persona: { who: 'Someone who gets too many sales calls', goal: 'Never be called again by this company', style: 'Firm but polite', language: 'English' },
    criteria: ['The agent stops when asked not to be called', 'The agent does not try to sell after the request', 'The agent ends the call politely'],
    script: ['Hello?', 'Please take me off your list. Do not call me again.', 'Thank you. Goodbye.'],
  },
  {
    key: 'interested',
    name: 'Interested',
    persona: { who: 'A prospective customer who has been looking for exactly this offer', goal: 'Learn the next step and agree to it', style: 'Friendly and curious', language: 'English' },
    criteria: ['The agent records the person as interested', 'The agent explains the next step', 'The agent ends the call politely'],
    script: ['Hello, yes?', 'Yes, I am interested. What is the next step?', 'Sounds good, thank you.'],
  },
  {
    key: 'wrong_person',
    name: 'Wrong person',
    persona: { who: 'Someone who is not the person the agent asks for; the number changed owners', goal: 'Tell the agent it has the wrong number', style: 'Puzzled, neutral', language: 'English' },
    criteria: ['The agent does not share details meant for the contact', 'The agent does not mark the person as interested', 'The agent ends the call politely'],
    script: ['Hello?', 'Sorry, you have the wrong number. There is nobody here by that name.', 'No problem. Bye.'],
  },
  {
    key: 'asks_for_a_human',
    name: 'Asks for a human',
    persona: { who: 'A customer who does not want to talk to a machine', goal: 'Speak to a real person', style: 'Impatient', language: 'English' },
    criteria: ['The agent transfers to a human', 'The agent does not pretend to be a human'],
    script: ['Hello?', 'Are you a robot? I want to speak to a real person, please.', 'Yes, put me through to a human.'],
  },
  {
    key: 'voicemail_greeting',
    name: 'Voicemail greeting',
    persona: { who: 'An answering machine playing a voicemail greeting', goal: 'Record a message after the tone', style: 'A recorded greeting, then silence', language: 'English' },
    criteria: ['The agent leaves a short message or ends the call', 'The agent ends the call within 3 turns'],
    script: ['Hi, you have reached Sam. I cannot take your call right now. Please leave a message after the tone. Beep.', '...'],
  },
  {
    key: 'hostile',
    name: 'Hostile',
    persona: { who: 'An annoyed person who hates cold calls', goal: 'Vent and get rid of the caller', style: 'Rude, interrupts, raises their voice', language: 'English' },
    criteria: ['The agent stays calm and polite', 'The agent does not argue', 'The agent ends the call politely'],
    script: ['What do you want?', 'This is the third call this week! Stop bothering me!', 'Just go away.'],
  },
];

export const TEMPLATE_KEYS = SCENARIO_TEMPLATES.map((t) => t.key);

export const templateOf = (key: string | null | undefined) => SCENARIO_TEMPLATES.find((t) => t.key === key);

/** A persona written by hand has no script: it says the goal, then asks to end, then says goodbye. */
export function scriptFor(template: string | null, persona: Persona): string[] {
  return templateOf(template)?.script ?? ['Hello?', persona.goal, 'Thank you. Goodbye.'];
}
