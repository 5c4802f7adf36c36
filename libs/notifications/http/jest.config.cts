module.exports = {
  displayName: 'notifications-http',
  preset: '../../../jest.preset.js',
  coverageDirectory: '../../../coverage/libs/notifications/http',
};
