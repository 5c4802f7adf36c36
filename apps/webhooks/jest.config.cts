module.exports = {
  displayName: 'webhooks',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/apps/webhooks',
};
