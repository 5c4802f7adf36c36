module.exports = {
  displayName: 'notifications-contract',
  preset: '../../../jest.preset.js',
  coverageDirectory: '../../../coverage/libs/notifications/contract',
};
