module.exports = {
  displayName: 'service-notifications',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/service-notifications',
};
