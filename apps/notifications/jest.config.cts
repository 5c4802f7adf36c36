module.exports = {
  displayName: 'notifications',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/apps/notifications',
};
